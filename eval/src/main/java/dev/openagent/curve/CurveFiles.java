package dev.openagent.curve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A learning curve as two files in a directory: {@code curve.csv} (series, x, metric, value, lo, hi; one row a point,
 * ordered by series, x and metric) and {@code curve.json} (the same points as an array of objects). Both are rewritten
 * whole on {@link #flush} (through a temporary file and a rename, so a killed run never leaves half a file), and their
 * bytes depend only on the points, so two runs that give the same points give the same files.
 */
public final class CurveFiles implements CurveSink {
    public static final String CSV = "curve.csv";
    public static final String JSON = "curve.json";

    private record Key(String series, long x, String metric) {}

    private record Value(double value, double lo, double hi) {}

    private static final Comparator<Key> ORDER = Comparator.comparing(Key::series).thenComparingLong(Key::x).thenComparing(Key::metric);

    private final Path dir;
    private final Map<Key, Value> points = new TreeMap<>(ORDER);

    public CurveFiles(Path dir) {
        this.dir = dir;
    }

    @Override
    public synchronized void point(String series, long x, String metric, double value, double lo, double hi) {
        points.put(new Key(series, x, metric), new Value(value, lo, hi));
    }

    @Override
    public synchronized void flush() {
        StringBuilder csv = new StringBuilder("series,x,metric,value,lo,hi\n");
        ArrayNode json = Json.MAPPER.createArrayNode();
        points.forEach((k, v) -> {
            csv.append(quote(k.series())).append(',').append(k.x()).append(',').append(quote(k.metric())).append(',')
                    .append(number(v.value())).append(',').append(number(v.lo())).append(',').append(number(v.hi())).append('\n');
            ObjectNode o = json.addObject();
            o.put("series", k.series());
            o.put("x", k.x());
            o.put("metric", k.metric());
            o.put("value", v.value());
            if (!Double.isNaN(v.lo())) o.put("lo", v.lo());
            if (!Double.isNaN(v.hi())) o.put("hi", v.hi());
        });
        write(dir.resolve(CSV), csv.toString());
        write(dir.resolve(JSON), Json.pretty(json) + "\n");
    }

    private static String number(double d) {
        if (Double.isNaN(d)) return "";
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return String.format(Locale.ROOT, "%.6g", d).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
