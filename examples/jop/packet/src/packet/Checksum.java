/*
 * Checksum.java -- a 16-bit checksum over part of a byte array.
 */
package packet;

/** Computes a 16-bit check value (0..65535) of b[off .. off+len-1]. */
interface Checksum {
    int compute(byte[] b, int off, int len);
}
