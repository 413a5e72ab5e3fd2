package dev.openagent.tau2;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Python's float arithmetic where tau2's tools show or store its results: {@code round(x, n)} (round half to even
 * on the exact binary value, sign kept) and {@code repr(x)} (the shortest digits that read back, in fixed notation
 * between 1e-4 and 1e16, else with a two-digit exponent).
 */
final class PyFloat {
    private PyFloat() {}

    /** Python's {@code round(x, digits)}. */
    static double round(double x, int digits) {
        if (Double.isNaN(x) || Double.isInfinite(x) || x == 0) return x;
        double r = Double.parseDouble(new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN).toPlainString());
        return r == 0 ? Math.copySign(0.0, x) : r;
    }

    /** Python's {@code repr(x)} (and {@code str(x)}) of a float. */
    static String repr(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        String sign = (x < 0 || (x == 0 && 1 / x < 0)) ? "-" : "";
        if (x == 0) return sign + "0.0";
        // Java's Double.toString gives the shortest digits that read back (JDK 19+), as Python's repr does.
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(x))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int point = digits.length() - d.scale();   // the value is 0.DIGITS x 10^point
        if (point > -4 && point <= 16) {
            if (point <= 0) return sign + "0." + "0".repeat(-point) + digits;
            if (point >= digits.length()) return sign + digits + "0".repeat(point - digits.length()) + ".0";
            return sign + digits.substring(0, point) + "." + digits.substring(point);
        }
        int exp = point - 1;
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String e = Integer.toString(Math.abs(exp));
        return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
}
