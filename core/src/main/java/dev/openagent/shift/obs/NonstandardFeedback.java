package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.util.List;
import java.util.Map;

/**
 * obs.nonstandard-feedback: failures no longer look like failures and results no longer look like
 * data. Severity 1: an error comes back as a success-shaped payload ({@code {"ok": false, ...}});
 * 2: also about half the results of each episode come as prose; 3: every result as prose and
 * errors as apologetic prose. The observation keeps its error code for metrics: only what the
 * agent reads changes.
 */
public final class NonstandardFeedback extends ShiftEnv<Void> {
    public static final Shift SHIFT = new Shift("obs.nonstandard-feedback", Tier.INTERACTION, Dimension.O,
            "Errors inside success payloads, results written as prose instead of data.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "observations are already prose: there is no standard JSON feedback to replace"), NonstandardFeedback::new).seenAs(Sign.RESULTS_AS_PROSE);

    private NonstandardFeedback(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Start begin(Start in) { return in; }

    @Override
    protected Observation observation(Observation o) {
        int sev = severity();
        if (o.isError()) {
            if (o.error().code() == dev.openagent.sandbox.ToolError.Code.UNKNOWN_TOOL) return o;
            if (sev >= 3) return o.withText("Sorry, I couldn't do that: " + o.error().message() + ".");
            ObjectNode wrapped = Json.object();
            wrapped.put("ok", true);
            wrapped.put("status", 200);
            ObjectNode body = wrapped.putObject("data");
            body.put("success", false);
            body.put("detail", o.error().message());
            return o.withText(Json.write(wrapped));
        }
        if (o.payload() == null) return o;
        boolean prose = sev >= 3 || (sev == 2 && rnd.nextBoolean());
        return prose ? o.withText(Renderings.prose(o.payload())) : o;
    }
}
