package dev.openagent.policy;

/**
 * Surface matching between a context token and a schema value (an enum value or an answer word):
 * equal ignoring case, or one a short inflection of the other ({@code cafes}/{@code cafe},
 * {@code Tuesday}/{@code tuesday}). It only marks candidates; the model decides from context.
 */
final class Lexical {
    private Lexical() {}

    static boolean matches(String tokenLower, String valueLower) {
        if (tokenLower.equals(valueLower)) return true;
        int a = tokenLower.length();
        int b = valueLower.length();
        if (Math.min(a, b) < 3 || Math.abs(a - b) > 3) return false;
        return a > b ? tokenLower.startsWith(valueLower) : valueLower.startsWith(tokenLower);
    }
}
