#!/bin/sh
# Writes the Terraform and OpenTofu plan files under <tool>-<version>/ and
# each one's show -json document as the writing tool printed it. The tests
# never run this; they decode the plan files and compare plankit's show
# -json with the documents (planfile/foreign_test.go).
#
#   FWTEST=/path/to/terraform-provider-fwtest ./make.sh TOOL...
#
# Each TOOL is a terraform or tofu binary built from its public source
# (Terraform v1.11.4 and v1.5.7; OpenTofu v1.12.6 and v1.8.9); the
# directory is named after the tool and the version it prints. Build
# OpenTofu as its releases are, so it prints no -dev suffix:
#   go build -ldflags "-X github.com/opentofu/opentofu/version.dev=no" ./cmd/tofu
# Terraform: go build . in its source tree (tags v1.5.7, v1.11.4). FWTEST is built from testdata/providers/fwtest
# (cd testdata/providers && go build -o DIR/terraform-provider-fwtest ./fwtest).
# No network is used: the provider comes from a -plugin-dir mirror.
#
# Scenarios, each planned from the state config/before left:
#   change   config/after: creates (count, unknown values), an update, a
#            replacement by triggers, a create_before_destroy replacement,
#            a delete, a move, an import, a data source, a sensitive
#            variable and outputs, a module, nested blocks, a check
#   destroy  plan -destroy of config/before
#   refresh  plan -refresh-only of config/before, after a change outside
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${FWTEST:?set FWTEST to terraform-provider-fwtest}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plat=$(go env GOOS)_$(go env GOARCH)
for host in registry.terraform.io registry.opentofu.org; do
	d=$work/plugins/$host/plankit/fwtest/1.0.0/$plat
	mkdir -p "$d"
	cp "$FWTEST" "$d/terraform-provider-fwtest_v1.0.0"
done
export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1 HOME=$work/home CHECKPOINT_DISABLE=1

for bin in "$@"; do
	version=$("$bin" version | sed -n '1s/^[^ ]* v//p')
	case $("$bin" version | sed -n '1s/ .*//p') in
	Terraform) name=terraform ;;
	OpenTofu) name=tofu ;;
	*) echo "$bin is neither Terraform nor OpenTofu" >&2; exit 1 ;;
	esac
	out=$here/$name-$version
	rm -rf "$out"
	for scenario in change destroy refresh; do
		run=$work/run
		rm -rf "$run"
		mkdir -p "$run/objects" "$out/$scenario"
		cp -r "$here/config/before" "$run/dir"
		export FWTEST_STATE_DIR=$run/objects
		cd "$run/dir"
		"$bin" init -plugin-dir="$work/plugins" -input=false >/dev/null
		"$bin" apply -auto-approve -input=false >/dev/null
		# the object the import adopts, made outside the tool
		mkdir -p "$run/objects/thing"
		printf '{"id":"imported-1","name":"adopted","value":"from outside","revision":1,"private":""}\n' >"$run/objects/thing/imported-1.json"
		case $scenario in
		change)
			rm -f ./*.tf && cp -r "$here/config/after/." .
			"$bin" plan -input=false -out=plan.tfplan >/dev/null ;;
		destroy)
			"$bin" plan -input=false -destroy -out=plan.tfplan >/dev/null ;;
		refresh)
			for f in "$run"/objects/thing/*.json; do sed -i 's/"value": *"v1"/"value":"changed outside"/' "$f"; done
			"$bin" plan -input=false -refresh-only -out=plan.tfplan >/dev/null ;;
		esac
		cp plan.tfplan "$out/$scenario/plan.tfplan"
		"$bin" show -json plan.tfplan | python3 -m json.tool --indent 1 >"$out/$scenario/show.json"
		cd "$here"
	done
done
