package dev.openagent.shift;

import dev.openagent.sandbox.Detail;

/** Test access to how the oracle phrases a question about a removed detail. */
final class ShiftedQuestions {
    private ShiftedQuestions() {}

    static String about(Detail d) { return QueryShift.question(d); }
}
