/*
 * Pid.java -- fixed-point PID speed controller.
 */
package control;

/**
 * Parallel PID in Q16.16. The integral is clamped (anti-windup) and the
 * derivative acts on the measurement, so setpoint steps give no kick.
 * Gains are per control tick.
 */
final class Pid implements Controller {
    private int kp;
    private final int ki;
    private final int kd;
    private final int integralLimit;
    private int integral;
    private int previous;
    private boolean primed;

    Pid(int kp, int ki, int kd, int integralLimit) {
        this.kp = kp;
        this.ki = ki;
        this.kd = kd;
        this.integralLimit = integralLimit;
    }

    public int update(int sp, int pv) {
        int err = sp - pv;
        integral = Fixed.clamp(integral + Fixed.mul(ki, err),
                -integralLimit, integralLimit);
        int rate = primed ? previous - pv : 0;
        previous = pv;
        primed = true;
        return Fixed.mul(kp, err) + integral + Fixed.mul(kd, rate);
    }

    public void reset() {
        integral = 0;
        primed = false;
    }

    void setProportional(int gain) {
        kp = gain;
    }
}
