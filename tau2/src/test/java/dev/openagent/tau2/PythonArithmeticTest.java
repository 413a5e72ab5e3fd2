package dev.openagent.tau2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Python's float rounding and printing, and tau2's calculate tool, as Python 3.11 gives them. */
class PythonArithmeticTest {
    @Test
    void roundsHalfToEvenOnTheExactBinaryValueKeepingTheSign() {
        assertEquals(2.67, PyFloat.round(2.675, 2));      // 2.675 is 2.67499999... in binary
        assertEquals(0.12, PyFloat.round(0.125, 2));      // exactly half: to even
        assertEquals(0.38, PyFloat.round(0.375, 2));
        assertEquals(1130.85, PyFloat.round(1130.8500000000001, 2));
        assertEquals("-0.0", PyFloat.repr(PyFloat.round(-0.001, 2)));
    }

    @Test
    void printsFloatsAsPythonsRepr() {
        assertEquals("100.0", PyFloat.repr(100));
        assertEquals("54.04", PyFloat.repr(54.04));
        assertEquals("0.0001", PyFloat.repr(0.0001));
        assertEquals("1e-05", PyFloat.repr(0.00001));
        assertEquals("1.5e-07", PyFloat.repr(1.5e-7));
        assertEquals("1000000000000000.0", PyFloat.repr(1e15));
        assertEquals("1e+16", PyFloat.repr(1e16));
        assertEquals("12345678.9", PyFloat.repr(12345678.9));
        assertEquals("0.30000000000000004", PyFloat.repr(0.1 + 0.2));
        assertEquals("-17.99", PyFloat.repr(-17.99));
        assertEquals("inf", PyFloat.repr(Double.POSITIVE_INFINITY));
    }

    @Test
    void calculatesAsPythonEvaluates() {
        assertEquals("4.0", Calculator.calculate("2 + 2"));
        assertEquals("3.33", Calculator.calculate("10/3"));
        assertEquals("-4.0", Calculator.calculate("-7 // 2"));
        assertEquals("-4.0", Calculator.calculate("-7.5 // 2"));
        assertEquals("512.0", Calculator.calculate("2**3**2"));
        assertEquals("-4.0", Calculator.calculate("-2**2"));
        assertEquals("0.5", Calculator.calculate("2 ** -1"));
        assertEquals("5.0", Calculator.calculate("3 - - 2"));
        assertEquals("1.0", Calculator.calculate("1/3*3"));
        assertEquals("0.5", Calculator.calculate(".5"));
        assertEquals("0.0", Calculator.calculate("00"));
        assertEquals("7.5", Calculator.calculate("007.5"));
        assertEquals("1126.04", Calculator.calculate("(54.04 + 1072) * 1"));
    }

    @Test
    void refusesWithPythonsMessages() {
        assertError("Invalid characters in expression", "2 + x");
        assertError("invalid syntax (<string>, line 0)", "  ");
        assertError("invalid syntax (<string>, line 1)", "2 +");
        assertError("invalid syntax (<string>, line 1)", "1 2");
        assertError("invalid syntax (<string>, line 1)", "1.2.3");
        assertError("'(' was never closed (<string>, line 1)", "((1)");
        assertError("unmatched ')' (<string>, line 1)", "2)");
        assertError("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)", "05");
        assertError("division by zero", "1/0");
        assertError("float division by zero", "1.0/0");
        assertError("integer division or modulo by zero", "1//0");
        assertError("float floor division by zero", "1.0//0");
        assertError("0.0 cannot be raised to a negative power", "0**-1");
        assertError("float() argument must be a string or a real number, not 'complex'", "(-8)**0.5");
        assertError("int too large to convert to float", "2**10000");
        assertError("(34, 'Numerical result out of range')", "2.0**10000");
        assertError("float() argument must be a string or a real number, not 'tuple'", "()");
        assertError("'int' object is not callable", "1 (2)");
    }

    private static void assertError(String message, String expression) {
        assertEquals(message, assertThrows(Calculator.PyError.class, () -> Calculator.calculate(expression)).getMessage(), expression);
    }
}
