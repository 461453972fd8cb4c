# tests/apps.sh -- the twelve real applications the application suites
# and bench/completeness run (sourced, not run): xalan (an XSLT
# transform), rhino (a JavaScript program, compiled to classes at run
# time), antlr (a parser generator run), h2 (an SQL script on an in-memory
# database), clojure, groovy and jython (scripts compiled to classes at run
# time), FOP (an FO document to text), Batik (SVG to PNG), Ant (a build),
# Maven (a project's build plan, offline) and Lucene (a search in an index
# of tests/data/apps). Jars from Debian packages under /usr/share/java and
# /usr/share/maven (.ci/deps), workloads in tests/data/apps.
#
# apps_each FN: for each application (all of them, or those named in
# APPS_ONLY, "a,b"), sets
#   HIDE_MORE    frames an oracle comparison hides on both sides besides
#                the common ones (classes the program generates at run
#                time are not instrumented: cccp sees no calls inside them,
#                a JVMTI agent does)
#   JOPTS        JVM options of every run of it
#   COPY         1 when the plain runs must use copies of the jars in a
#                folder whose path is as long as the rewritten jars'
#                (Jython reads its own jar's directory, every entry
#                prefixed with the jar's path; Ant parses the class path)
#   MIN_OVERLAP  the CCT overlap with the oracle asked for (app mode)
# and calls FN NAME "PREFIXES" "JARS" MAIN ARGS...: PREFIXES are the
# application's packages (--app-prefix), JARS its class path (absolute
# paths, the first holds MAIN). In ARGS, '@OUT@' stands for a folder of
# outputs FN makes; relative outputs land in the working directory.
# An application whose jars are not all installed is skipped with a
# message. Lucene searches an index the plain library makes first (an
# index holds times and random ids) in $T/lucene-idx with $APPS_JAVA
# (default java on PATH).
# Uses: T (a scratch folder), DATA (tests/data/apps). Safe under set -e.

APPS_SJ=/usr/share/java

# The applications the suites take on JDK 25 in 'make check' (each takes
# them all under CCCP_FULL=1, and all of them on JDK 17 always): the
# short runs, and one of the languages that compile at run time.
APPS25_SAMPLE=" xalan rhino antlr h2 groovy lucene batik "

# apps_full25 NAME: whether JDK 25 takes application NAME in full
apps_full25() {
  [ "${CCCP_FULL:-0}" = 1 ] || case $APPS25_SAMPLE in *" $1 "*) true ;; *) false ;; esac
}

# apps_one FN NAME PREFIXES JARS MAIN ARGS...: JARS resolved (a bare
# name is under /usr/share/java), FN called when all are there
apps_one() {
  local fn=$1 name=$2 prefixes=$3 jars=$4 j p abs="" missing=0
  shift 4
  case ",${APPS_ONLY:-$name}," in *",$name,"*) ;; *) return 0 ;; esac
  for j in $jars; do
    p=$j; [ "${j#/}" = "$j" ] && p="$APPS_SJ/$j"
    [ -f "$p" ] || { echo "  skip $name: no $p"; missing=1; }
    abs="$abs${abs:+ }$p"
  done
  [ $missing = 0 ] || return 0
  "$fn" "$name" "$prefixes" "$abs" "$@"
}

apps_each() {
  local fn=$1
  HIDE_MORE=() JOPTS=() COPY= MIN_OVERLAP=99.9
  apps_one "$fn" xalan "org/apache/ java_cup/" "xalan2.jar serializer.jar xercesImpl.jar" \
    org.apache.xalan.xslt.Process -IN "$DATA/catalog.xml" -XSL "$DATA/catalog.xsl"
  HIDE_MORE=(--hide 'org/mozilla/javascript/gen/*')
  apps_one "$fn" rhino "org/mozilla/" "js.jar" \
    org.mozilla.javascript.tools.shell.Main "$DATA/script.js"
  # Clojure: the script's fns and core.specs.alpha (shipped as source)
  # are compiled at run time. Its hash maps of Vars, classes and
  # namespaces hash by identity: the main thread's identity hashes are
  # the plain run's (app mode and agent only), so it runs unpinned, and
  # as users run it, through its manifest's Class-Path (naming the two
  # jars on -cp as well would open them twice plain, under their
  # manifest paths, and once instrumented: the JDK hashes each jar's
  # streams). JDK mode pins every identity hash to 1 on every side
  # (PIN_HASHES: -XX:hashCode=2, the maps keep insertion order).
  HIDE_MORE=(--hide 'user$*' --hide 'clojure/core/specs/alpha$*')
  JOPTS=(${PIN_HASHES[@]+"${PIN_HASHES[@]}"})
  apps_one "$fn" clojure "clojure/" "clojure-1.11.jar" \
    clojure.main "$DATA/work.clj"
  JOPTS=()
  # Groovy and Jython sort what Class.getDeclaredMethods lists (Groovy's
  # CachedClass, Jython's PyJavaType), and HotSpot lists a class's methods
  # in an order that depends on how many it has (an unstable sort by
  # name): with the twins, the overloads of a name come in another order,
  # the sort compares other pairs, and caches fill in another order. The
  # jython script's module (org/python/pycode) is compiled at run time.
  # Jython's finalizers run when the collector finds their objects, which
  # the runtime's allocations make sooner: no collector runs on any side
  # (Epsilon). Jython also reads its compiled modules' class files
  # (rewritten: larger) as data, and lists the loaded packages (the
  # runtime's among them). Groovy's caches keyed by class hash by
  # identity too. (docs/testing.md, the profiles against the oracle: the shares.)
  local groovy
  groovy=$(for j in /usr/share/groovy/lib/*.jar; do if [ -e "$j" ]; then echo "$j"; fi; done)
  [ -n "$groovy" ] || groovy=/usr/share/groovy/lib/groovy.jar
  HIDE_MORE=(--hide 'Script*' --hide 'work*')
  MIN_OVERLAP=99.7
  apps_one "$fn" groovy "groovy/ org/codehaus/groovy/ org/apache/groovy/" "$groovy" \
    groovy.ui.GroovyMain "$DATA/work.groovy"
  HIDE_MORE=(--hide 'org/python/pycode/*')
  MIN_OVERLAP=99.8
  JOPTS=(-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx3g -Xlog:gc+init=off)
  COPY=1
  apps_one "$fn" jython "org/python/" "jython.jar" org.python.util.jython "$DATA/work.py"
  COPY=
  JOPTS=()
  HIDE_MORE=()
  MIN_OVERLAP=99.9
  apps_one "$fn" antlr "antlr/" "antlr.jar" antlr.Tool -o @OUT@ "$DATA/calc.g"
  apps_one "$fn" h2 "org/h2/" "h2.jar" \
    org.h2.tools.RunScript -url jdbc:h2:mem:t -script "$DATA/h2.sql" -showResults
  # ecj, the Eclipse compiler (Debian's ecj command): the bundled
  # example's sources to class files, which must be the plain run's
  apps_one "$fn" ecj "org/eclipse/" "eclipse-jdt-core.jar" \
    org.eclipse.jdt.internal.compiler.batch.Main -17 -proc:none -nowarn \
    -d @OUT@ "$ROOT/examples/wordfreq/src/wordfreq"
  # FOP to text and Batik to PNG: the jars their start scripts list (the
  # PDF renderer, the indexing Lucene run: test_load_apps.sh,
  # test_realapps.sh, whose outputs hold times and random ids)
  local fop
  fop="commons-io.jar serializer.jar xalan2.jar xml-apis.jar batik-all.jar \
commons-logging.jar xercesImpl.jar xmlgraphics-commons.jar xml-apis-ext.jar \
fontbox2.jar $(if [ -f /usr/share/fop/fop-hyph.jar ]; then echo /usr/share/fop/fop-hyph.jar; fi) fop.jar"
  JOPTS=(-Djava.awt.headless=true
         -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog)
  apps_one "$fn" fop "org/apache/ org/mozilla/" "$fop" \
    org.apache.fop.cli.Main "$DATA/fop.fo" -txt gen/fop.txt
  JOPTS=(-Djava.awt.headless=true)
  apps_one "$fn" batik "org/apache/ org/mozilla/" "xercesImpl.jar batik-all.jar \
xml-apis-ext.jar batik-transcoder.jar fop.jar xmlgraphics-commons.jar \
commons-logging.jar commons-io.jar" \
    org.apache.batik.apps.rasterizer.Main -scriptSecurityOff -d gen/drawing.png \
    "$DATA/drawing.svg"
  JOPTS=()
  # Ant: a build (tests/data/apps/build.xml) that writes, compiles (javac
  # in a JVM of its own) and runs a task of its own in Ant's JVM, from
  # classes nobody instrumented. Maven: its model and build plan, offline,
  # and the failure, with its stack trace, for want of an installed
  # plugin; MavenCli makes its own class world from the class path.
  COPY=1
  apps_one "$fn" ant "org/apache/tools/" "ant.jar ant-launcher.jar" \
    org.apache.tools.ant.Main -S -f "$DATA/build.xml" -Dbuild=@OUT@
  COPY=
  local mvn
  mvn=$(for j in /usr/share/maven/lib/*.jar; do if [ -e "$j" ]; then echo "$j"; fi; done)
  [ -n "$mvn" ] || mvn=/usr/share/maven/lib/maven-core-3.x.jar
  # Maven's container (Sisu) scans class files for components with an ASM
  # of its own (the rewritten ones are larger: hidden on both sides),
  # keeps bindings behind weak references (no collector runs on any
  # side), hashes by identity beyond the main thread (unpinned: 99.41 to
  # 99.68%, so hashCode=2 on every side), and Guice sorts what
  # Class.getDeclaredMethods lists (as Groovy does).
  JOPTS=(-Dmaven.home=/usr/share/maven -Dmaven.multiModuleProjectDirectory="$DATA"
         -XX:+UnlockExperimentalVMOptions -XX:hashCode=2 -XX:+UseEpsilonGC
         -Xmx3g -Xlog:gc+init=off)
  HIDE_MORE=(--hide 'org/eclipse/sisu/space/asm/*')
  MIN_OVERLAP=99.8
  apps_one "$fn" maven "org/apache/ org/codehaus/ org/eclipse/ org/slf4j/ \
com/google/ org/fusesource/ org/sonatype/ javax/inject/ javax/enterprise/ \
javax/annotation/ javax/decorator/ javax/interceptor/ org/aopalliance/" \
    "$mvn plexus-classworlds.jar" \
    org.apache.maven.cli.MavenCli -o -B -q -e -f "$DATA/pom.xml" \
    -Dmaven.repo.local=@OUT@/repo compile
  JOPTS=()
  HIDE_MORE=()
  MIN_OVERLAP=99.9
  case ",${APPS_ONLY:-lucene}," in *,lucene,*) ;; *) return 0 ;; esac
  local lu=(lucene-demo-4.10.4.jar lucene-core-4.10.4.jar
            lucene-analyzers-common-4.10.4.jar lucene-queryparser-4.10.4.jar)
  if [ -d "$T/lucene-idx/idx" ] ||
     (mkdir -p "$T/lucene-idx/docs" && cp "$DATA"/* "$T/lucene-idx/docs/" &&
      cd "$T/lucene-idx" && "${APPS_JAVA:-java}" -cp "$(printf "$APPS_SJ/%s:" "${lu[@]}")" \
        org.apache.lucene.demo.IndexFiles -index idx -docs docs >/dev/null 2>&1); then
    apps_one "$fn" lucene "org/apache/lucene/" "${lu[*]}" \
      org.apache.lucene.demo.SearchFiles -index "$T/lucene-idx/idx" -query 'select OR fib'
  else
    echo "  skip lucene: no index made (no Lucene 4.10 demo in $APPS_SJ?)"
  fi
}

# mask FILE: the locations of the jars a warning names (the copies' and
# the rewritten jars' folders differ)
mask() {
  sed -E 's#\(file:[^)]*/([^/)]*)\)#(file:.../\1)#g' "$1"
}

# same_output WHAT P I: passes when run folder I printed (out.txt, jar
# locations masked) and wrote (gen/) exactly what the plain run P did
same_output() {
  if cmp -s <(mask "$2/out.txt") <(mask "$3/out.txt") &&
     diff -r "$2/gen" "$3/gen" >/dev/null; then
    pass "$1: output identical ($(wc -l <"$2/out.txt") lines, $(ls "$2/gen" | wc -l) files)"
  else
    fail "$1: output differs"
    diff <(mask "$2/out.txt") <(mask "$3/out.txt") | head -5 | sed 's/^/       /'
    diff -r "$2/gen" "$3/gen" | head -3 | sed 's/^/       /'
  fi
}
