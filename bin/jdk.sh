# Sourced by ./openagent, ./mvnw and .ci/run: prints the home of a JDK 21+ (or fails with a clear message).
java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n1
}

find_jdk21() {
  local candidates=() c v
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    v=$(java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then
      echo "$c"
      return 0
    fi
  done
  echo "openagent: no JDK 21 or newer found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm). Install one or set JAVA_HOME." >&2
  return 1
}
