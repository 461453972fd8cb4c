package wordfreq;

import java.util.ArrayList;
import java.util.List;

/** Splits text into lower-case words. */
final class Tokenizer {
    private final String text;

    Tokenizer(String text) {
        this.text = text;
    }

    List<String> tokens() {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean letter = i < text.length() && Character.isLetter(text.charAt(i));
            if (letter && start < 0) {
                start = i;
            } else if (!letter && start >= 0) {
                out.add(text.substring(start, i).toLowerCase());
                start = -1;
            }
        }
        return out;
    }
}
