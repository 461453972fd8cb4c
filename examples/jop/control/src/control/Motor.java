/*
 * Motor.java -- simulated brushed DC motor with a load (the plant).
 */
package control;

/**
 * Electrical and mechanical equations of a DC motor, forward Euler with a
 * 1 ms step, in Q16.16: L di/dt = V - R i - Ke w, J dw/dt = Kt i - B w - load.
 * The load is Coulomb friction set by the test bench: it opposes motion
 * and holds the rotor at standstill while the motor torque is below it.
 */
final class Motor {
    private static final int R = Fixed.ONE;                 // ohm
    private static final int KE = Fixed.ratio(5, 100);      // V s/rad = Nm/A
    private static final int B = Fixed.ratio(1, 1000);      // Nm s/rad
    private static final int DT_L = Fixed.ratio(5, 100);    // dt / L, L = 20 mH
    private static final int DT_J = Fixed.ONE;              // dt / J, J = 1e-3 kg m^2

    private int current;   // A
    private int speed;     // rad/s
    private int load;      // Nm
    private long angle;    // sum of speed over ticks: mrad in Q16.16

    void step(int volts) {
        int emf = Fixed.mul(KE, speed);
        current += Fixed.mul(DT_L, volts - Fixed.mul(R, current) - emf);
        int torque = Fixed.mul(KE, current) - Fixed.mul(B, speed);
        if (speed > 0) torque -= load;
        else if (speed < 0) torque += load;
        else if (torque > load) torque -= load;
        else if (torque < -load) torque += load;
        else torque = 0;
        int next = speed + Fixed.mul(DT_J, torque);
        if ((speed > 0 && next < 0) || (speed < 0 && next > 0)) next = 0;
        speed = next;
        angle += speed;
    }

    int current() {
        return current;
    }

    int speed() {
        return speed;
    }

    long angle() {
        return angle;
    }

    /** Load torque in mNm. */
    void setLoad(int milliNm) {
        load = Fixed.ratio(milliNm, 1000);
    }
}
