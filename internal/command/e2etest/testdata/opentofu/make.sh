#!/bin/sh
# Writes the expected show -json documents (*/show.json) and the inputs the
# test plans from (*/input: the state OpenTofu wrote and the fwtest
# provider's objects) with OpenTofu itself. The tests never run this; they
# run plankit on the same inputs and compare (command/e2etest/opentofu_show_test.go).
#
#   TOFU=/path/to/tofu FWTEST=/path/to/terraform-provider-fwtest ./make.sh
#
# TOFU is OpenTofu 1.12.6 built from its public source; FWTEST is built
# from testdata/providers/fwtest (go build, or providers/plugin/plugintest's
# cache). No network is used: providers come from a -plugin-dir mirror.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${TOFU:?set TOFU to the tofu binary}" "${FWTEST:?set FWTEST to terraform-provider-fwtest}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plat=$(go env GOOS)_$(go env GOARCH)
for host in registry.terraform.io registry.opentofu.org; do
	d=$work/plugins/$host/plankit/fwtest/1.0.0/$plat
	mkdir -p "$d"
	cp "$FWTEST" "$d/terraform-provider-fwtest_v1.0.0"
done
export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1 HOME=$work/home
tofu() { "$TOFU" "$@"; }

# seed DIR: the object the import and data sources read, made outside.
seed() {
	mkdir -p "$1/thing"
	printf '{"id":"imported-1","name":"adopted","value":"from outside","revision":1,"private":""}\n' >"$1/thing/imported-1.json"
}

# apply SCENARIO CONFIGDIR: apply CONFIGDIR in a fresh working directory
# whose objects and state are SCENARIO/input.
apply() {
	rm -rf "$here/$1/input" "$work/run"
	mkdir -p "$here/$1/input/objects"
	cp -r "$2" "$work/run"
	export FWTEST_STATE_DIR=$here/$1/input/objects
	(cd "$work/run" && tofu init -plugin-dir="$work/plugins" -input=false >/dev/null &&
		tofu apply -auto-approve -input=false -state="$here/$1/input/terraform.tfstate" >/dev/null)
}

# plan SCENARIO CONFIGDIR INPUT [ARGS]: plan CONFIGDIR against INPUT's
# state and objects, and write SCENARIO/show.json.
plan() {
	s=$1 cfg=$2 in=$3
	shift 3
	rm -rf "$work/run"
	cp -r "$cfg" "$work/run"
	cp -r "$in" "$work/in"
	export FWTEST_STATE_DIR=$work/in/objects
	state=
	if [ -f "$work/in/terraform.tfstate" ]; then state=-state=$work/in/terraform.tfstate; fi
	(cd "$work/run" && tofu init -plugin-dir="$work/plugins" -input=false >/dev/null &&
		tofu plan -input=false -lock=false $state -out=p.tfplan "$@" >/dev/null &&
		tofu show -json p.tfplan | python3 -m json.tool --indent 2 >"$here/$s/show.json")
	rm -rf "$work/in"
}

# stack: apply "before", then change objects outside (drift), then plan
# "after" (and, for destroy, plan -destroy with "before").
apply stack "$here/stack/before"
seed "$here/stack/input/objects"
for f in "$here"/stack/input/objects/thing/*.json; do
	# team "a"'s database object gets another value outside the tool.
	if grep -q '"name": "alpha"' "$f"; then sed -i 's/"value": "ECDSA-5"/"value": "changed outside"/' "$f"; fi
done
plan stack "$here/stack/after" "$here/stack/input"
plan destroy "$here/stack/before" "$here/stack/input" -destroy

# fresh: no state; a data source reads an object that exists.
rm -rf "$here/fresh/input"
mkdir -p "$here/fresh/input/objects"
seed "$here/fresh/input/objects"
plan fresh "$here/fresh/config" "$here/fresh/input"

# opentofu-host: a state OpenTofu wrote for a provider named without a host.
apply opentofu-host "$here/opentofu-host/before"
plan opentofu-host "$here/opentofu-host/after" "$here/opentofu-host/input"

# relevant: what relevant_attributes lists (module instances, count
# instances, narrowing to one argument, no check block references).
apply relevant "$here/relevant/config"
plan relevant "$here/relevant/config" "$here/relevant/input" -var rev=2
