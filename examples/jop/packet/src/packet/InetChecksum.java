/*
 * InetChecksum.java -- the Internet checksum (RFC 1071), the end-to-end
 * payload check.
 */
package packet;

/** One's complement of the one's-complement sum of 16-bit big-endian words. */
final class InetChecksum implements Checksum {
    public int compute(byte[] b, int off, int len) {
        int sum = 0;
        int end = off + (len & ~1);
        for (int k = off; k < end; k += 2) {
            sum += ((b[k] & 0xFF) << 8) | (b[k + 1] & 0xFF);
        }
        if ((len & 1) != 0) sum += (b[end] & 0xFF) << 8;
        while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }
}
