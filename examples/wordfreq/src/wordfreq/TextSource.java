package wordfreq;

/** Generates pseudo-random text from a fixed vocabulary (deterministic). */
final class TextSource {
    private static final String[] VOCAB = {
        "stack", "frame", "method", "class", "node", "tree", "call", "context",
        "native", "bytecode", "loader", "thread", "profile", "cycle", "heap",
    };

    private TextSource() {}

    static String generate(int n, long seed) {
        StringBuilder sb = new StringBuilder(n * 7);
        long x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            int k = (int) ((x >>> 33) % VOCAB.length);
            // Skew the distribution so that the ranking is interesting.
            if ((x & 3) == 0) k = k / 3;
            sb.append(VOCAB[k]).append((i % 11 == 10) ? ".\n" : " ");
        }
        return sb.toString();
    }
}
