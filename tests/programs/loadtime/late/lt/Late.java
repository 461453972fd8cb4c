package lt;

/** Not rewritten: on the class path beside the rewritten jar. */
public class Late extends Init {}
