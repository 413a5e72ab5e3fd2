package dev.openagent.tau2;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * tau2's {@code calculate} tool: the expression (digits, {@code + - * / ( ) .} and spaces only) evaluated as Python
 * evaluates it (whole numbers stay exact, {@code /} divides as floats, {@code //} floors, {@code **} is a power that
 * binds tighter than a sign on its left), then {@code str(round(float(value), 2))}. Errors carry Python's messages
 * for what an agent is likely to write (division by zero, an unclosed parenthesis, a leading zero); any other
 * malformed expression gets Python's generic "invalid syntax".
 */
final class Calculator {
    private static final String SYNTAX = "invalid syntax (<string>, line 1)";
    private static final BigInteger MAX_EXACT = BigInteger.ONE.shiftLeft(53);

    /** A Python number: an exact int or a float. */
    private sealed interface Num permits Int, Flt {}

    private record Int(BigInteger v) implements Num {}

    private record Flt(double v) implements Num {}

    /** What Python would raise: its message (tau2 shows it after "Error: "). */
    static final class PyError extends RuntimeException {
        PyError(String message) {
            super(message, null, false, false);
        }
    }

    private final String text;
    private int pos;

    private Calculator(String text) {
        this.text = text;
    }

    /** The tool's result text, or {@link PyError} with Python's message. */
    static String calculate(String expression) {
        for (int i = 0; i < expression.length(); i++) {
            if ("0123456789+-*/(). ".indexOf(expression.charAt(i)) < 0) throw new PyError("Invalid characters in expression");
        }
        if (expression.isBlank()) throw new PyError("invalid syntax (<string>, line 0)");
        if ("()".equals(expression.strip())) throw new PyError("float() argument must be a string or a real number, not 'tuple'");
        Calculator c = new Calculator(expression);
        c.checkParentheses();
        Num v = c.expr();
        c.skip();
        if (c.pos < c.text.length()) throw c.syntax();
        return PyFloat.repr(PyFloat.round(toFloat(v), 2));
    }

    private void checkParentheses() {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '(') depth++;
            else if (ch == ')' && --depth < 0) throw new PyError("unmatched ')' (<string>, line 1)");
        }
        if (depth > 0) throw new PyError("'(' was never closed (<string>, line 1)");
    }

    // ---------------------------------------------------------------- grammar (Python's, for these characters)

    private Num expr() {
        Num v = term();
        while (true) {
            if (eat("+")) v = add(v, term(), 1);
            else if (eat("-")) v = add(v, term(), -1);
            else return v;
        }
    }

    private Num term() {
        Num v = factor();
        while (true) {
            if (eat("*")) v = mul(v, factor());
            else if (eat("//")) v = floorDiv(v, factor());
            else if (eat("/")) v = div(v, factor());
            else return v;
        }
    }

    private Num factor() {
        if (eat("-")) return negate(factor());
        if (eat("+")) return factor();
        return power();
    }

    private Num power() {
        Num base = atom();
        skip();
        if (pos < text.length() && text.charAt(pos) == '(') {
            // "2 (3)" is a call in Python: evaluated, then refused.
            atom();
            throw new PyError("'" + (base instanceof Int ? "int" : "float") + "' object is not callable");
        }
        if (eat("**")) return pow(base, factor());
        return base;
    }

    private Num atom() {
        skip();
        if (pos >= text.length()) throw syntax();
        char ch = text.charAt(pos);
        if (ch == '(') {
            pos++;
            Num v = expr();
            if (!eat(")")) throw syntax();
            return v;
        }
        if (Character.isDigit(ch) || ch == '.') return number();
        throw syntax();
    }

    private Num number() {
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
        boolean dot = pos < text.length() && text.charAt(pos) == '.';
        if (dot) {
            pos++;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
        }
        String literal = text.substring(start, pos);
        if (literal.equals(".")) throw syntax();
        if (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) throw syntax();
        if (!dot) {
            if (literal.length() > 1 && literal.charAt(0) == '0' && !literal.chars().allMatch(c -> c == '0')) {
                throw new PyError("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)");
            }
            return new Int(new BigInteger(literal));
        }
        return new Flt(Double.parseDouble(literal));
    }

    private boolean eat(String token) {
        skip();
        if (!text.startsWith(token, pos)) return false;
        // "*" is not the start of "**", "/" not of "//".
        if ((token.equals("*") || token.equals("/")) && text.startsWith(token + token, pos)) return false;
        pos += token.length();
        return true;
    }

    private void skip() {
        while (pos < text.length() && text.charAt(pos) == ' ') pos++;
    }

    private PyError syntax() { return new PyError(SYNTAX); }

    // ---------------------------------------------------------------- arithmetic (Python's)

    private static Num add(Num a, Num b, int sign) {
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y)) return new Int(sign > 0 ? x.add(y) : x.subtract(y));
        return new Flt(sign > 0 ? toFloat(a) + toFloat(b) : toFloat(a) - toFloat(b));
    }

    private static Num mul(Num a, Num b) {
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y)) return new Int(x.multiply(y));
        return new Flt(toFloat(a) * toFloat(b));
    }

    private static Num negate(Num a) {
        return a instanceof Int(BigInteger x) ? new Int(x.negate()) : new Flt(-((Flt) a).v());
    }

    private static Num div(Num a, Num b) {
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y)) {
            if (y.signum() == 0) throw new PyError("division by zero");
            if (x.abs().compareTo(MAX_EXACT) <= 0 && y.abs().compareTo(MAX_EXACT) <= 0) return new Flt(x.doubleValue() / y.doubleValue());
            return new Flt(new BigDecimal(x).divide(new BigDecimal(y), MathContext.DECIMAL128).doubleValue());
        }
        double y = toFloat(b);
        if (y == 0) throw new PyError("float division by zero");
        return new Flt(toFloat(a) / y);
    }

    private static Num floorDiv(Num a, Num b) {
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y)) {
            if (y.signum() == 0) throw new PyError("integer division or modulo by zero");
            BigInteger[] qr = x.divideAndRemainder(y);
            return new Int(qr[1].signum() != 0 && (qr[1].signum() != y.signum()) ? qr[0].subtract(BigInteger.ONE) : qr[0]);
        }
        double vx = toFloat(a);
        double wx = toFloat(b);
        if (wx == 0) throw new PyError("float floor division by zero");
        // CPython's float_divmod.
        double mod = vx % wx;
        double d = (vx - mod) / wx;
        if (mod != 0 && (wx < 0) != (mod < 0)) d -= 1.0;
        double floor;
        if (d != 0) {
            floor = Math.floor(d);
            if (d - floor > 0.5) floor += 1.0;
        } else {
            floor = Math.copySign(0.0, vx / wx);
        }
        return new Flt(floor);
    }

    private static Num pow(Num a, Num b) {
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y) && y.signum() >= 0) {
            if (x.abs().compareTo(BigInteger.ONE) <= 0) return new Int(x.pow(y.testBit(0) ? 1 : (y.signum() == 0 ? 0 : 2)));
            // Past 2^1024 the float() that follows overflows anyway.
            if (y.bitLength() > 31 || (long) x.abs().bitLength() * y.intValueExact() > 2048) throw new PyError("int too large to convert to float");
            return new Int(x.pow(y.intValueExact()));
        }
        double base = toFloat(a);
        double exp = toFloat(b);
        if (base == 0 && exp < 0) throw new PyError("0.0 cannot be raised to a negative power");
        if (base < 0 && exp != Math.rint(exp)) throw new PyError("float() argument must be a string or a real number, not 'complex'");
        double r = Math.pow(base, exp);
        if (Double.isInfinite(r)) throw new PyError("(34, 'Numerical result out of range')");
        return new Flt(r);
    }

    private static double toFloat(Num n) {
        return switch (n) {
            case Flt(double v) -> v;
            case Int(BigInteger v) -> {
                double d = v.doubleValue();
                if (Double.isInfinite(d)) throw new PyError("int too large to convert to float");
                yield d;
            }
        };
    }
}
