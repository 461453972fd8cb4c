/*
 * Controller.java -- a control law of the speed loop.
 */
package control;

/** Computes an output voltage contribution from setpoint and measurement. */
interface Controller {
    /** Output (Q16.16 volts) for setpoint sp and measured value pv (rad/s). */
    int update(int sp, int pv);

    /** Clears the controller's state (bumpless restart). */
    void reset();
}
