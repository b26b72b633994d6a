#!/bin/sh
# Splits the runnable jar into the image's two layers (Containerfile): lib/docs-assistant-dependencies.jar, the
# libraries, which change only when a dependency does, and docs-assistant.jar, the application (our classes and
# resources: what target/classes holds), which names the first on its Class-Path, so `java -jar` runs it as before.
# Both are written with fixed timestamps: a rebuild with the same dependencies gives the same layer, which a
# registry and a node already have.
#   layers.sh <runnable jar> <target/classes> <output folder>
set -eu
jar_file=$(realpath "$1"); classes=$(realpath "$2"); out=$(realpath -m "$3")
work=$(mktemp -d)
mkdir -p "$work/dependencies" "$work/application" "$out/lib"
cd "$work/dependencies"
jar xf "$jar_file"
main=$(grep '^Main-Class:' META-INF/MANIFEST.MF)
rm META-INF/MANIFEST.MF
# Our own entries move to the application; META-INF stays whole with the libraries (its service files are merged).
for entry in $(ls "$classes"); do
    if [ "$entry" != META-INF ]; then
        mv "$entry" "$work/application/"
    fi
done
printf 'Multi-Release: true\n' > "$work/dependencies.mf"
printf '%s\nClass-Path: lib/docs-assistant-dependencies.jar\nMulti-Release: true\n' "$main" > "$work/application.mf"
date=2000-01-01T00:00:02Z
jar --create --date=$date --file "$out/lib/docs-assistant-dependencies.jar" --manifest "$work/dependencies.mf" -C "$work/dependencies" .
jar --create --date=$date --file "$out/docs-assistant.jar" --manifest "$work/application.mf" -C "$work/application" .
rm -rf "$work"
