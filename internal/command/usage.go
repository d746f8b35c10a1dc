package command

const planUsage = `Usage: plan [options]
       plan show [-json [-redact]] [-format=markdown|html] [-max-bytes=N]
                 [-detailed-exitcode] [-no-color] [-verify-key=FILE]
                 [-state=PATH] FILE...
       plan check -policy=DIR [-data=FILE] [-namespace=NS] [-all-namespaces]
                  [-policy-timeout=D] [-json] [-no-color] [-verify-key=FILE]
                  FILE
       plan graph [-type=plan|plan-destroy|apply] [-plan=FILE] [-state=PATH]
                  [-plugin-dir=DIR]
       plan diff [-json] [-no-color] A.tfplan B.tfplan
       plan force-unlock [-force] [-state=PATH] [-backend-config=KEY=VALUE|FILE]
                         [-no-color] LOCK_ID
       plan init [-upgrade] [-plugin-dir=DIR] [-lockfile=readonly]
                 [-backend-config=KEY=VALUE|FILE] [-json] [-no-color]
       plan providers [-plugin-dir=DIR] [-state=PATH] [-no-color]
       plan version [-json]
       plan validate [-json] [-no-color]
       plan output [-json] [-raw] [-state=PATH] [-backend-config=KEY=VALUE|FILE]
                   [-no-color] [NAME]
       plan state list [-state=PATH] [-id=ID] [-backend-config=KEY=VALUE|FILE]
                       [-no-color] [ADDRESS...]
       plan state show [-state=PATH] [-backend-config=KEY=VALUE|FILE]
                       [-no-color] ADDRESS
       plan state mv|rm [-dry-run] [-backup=PATH] [-state=PATH] [-lock=false]
                        [-lock-timeout=D] [-backend-config=KEY=VALUE|FILE]
                        [-no-color] SOURCE DESTINATION | ADDRESS...
       plan state pull [-backend-config=KEY=VALUE|FILE]
       plan state push [-force] [-lock=false] [-lock-timeout=D]
                       [-backend-config=KEY=VALUE|FILE] FILE
       plan fmt [-check] [-diff] [-list=false] [-write=false] [-recursive]
                [-no-color] [TARGET...]
       plan workspace list|show|new|select|delete [-or-create] [-force]
                      [-lock=false] [-lock-timeout=D]
                      [-backend-config=KEY=VALUE|FILE] [-no-color] [NAME]

  Each subcommand has its own -help; its options may come before or after
  its arguments.

  Plans the changes that make the real infrastructure match the
  configuration in the working directory.

Options:
  -chdir=DIR           Switch to DIR before anything else.
  -out=FILE            Write the plan archive to FILE, for "apply FILE".
  -var 'NAME=VALUE'    Set a root input variable (repeatable).
  -var-file=FILE       Load variable values from a .tfvars(.json) file.
  -target=ADDR         Plan only this resource or module (repeatable).
  -replace=ADDR        Force replacement of this instance (repeatable).
  -destroy             Plan to destroy every object in the state.
  -refresh-only        Plan only to update the state to match real objects.
  -refresh=false       Skip refreshing objects before planning.
  -parallelism=N       Limit concurrent operations (default 10).
  -state=PATH          State file (default terraform.tfstate, or the local
                       backend's path).
  -lock=false          Do not lock the state file.
  -lock-timeout=D      Retry a held state lock for D (e.g. 30s).
  -json                Machine-readable output, one JSON object per line.
  -no-color            No colour.
  -detailed-exitcode   Exit 0 with no changes, 1 on error, 2 with changes.
  -sign-key=FILE       Sign the archive with an ed25519 private key (needs
                       -out).
  -generate-config-out=FILE
                       Write resource blocks for import targets that have
                       none to FILE (a new file).
  -input=false         Accepted for compatibility; plankit never prompts.
  -plugin-dir=DIR      Look for provider plugins in DIR first (repeatable).
  -install             Install the providers first, as plan init does.
  -backend-config=KEY=VALUE|FILE
                       Backend setting, or a file of them (repeatable).
  -policy=DIR          Check the plan against the Rego policies in DIR
                       (repeatable); with -out the result is recorded in
                       the archive. Exit 3 when a policy fails.
  -data=FILE, -namespace=NS, -all-namespaces, -policy-timeout=D
                       As for plan check (need -policy).
`

const applyUsage = `Usage: apply [options] [FILE]

  With FILE, applies the plan archive FILE exactly. Without, plans and
  applies in one step (needs -auto-approve unless stdin is a terminal).

Options:
  -chdir=DIR           Switch to DIR before anything else.
  -state=PATH          State file (default terraform.tfstate, or the local
                       backend's path recorded in the plan).
  -parallelism=N       Limit concurrent operations (default 10).
  -lock=false          Do not lock the state file.
  -lock-timeout=D      Retry a held state lock for D.
  -json                Machine-readable output, one JSON object per line.
  -no-color            No colour.
  -verify-key=FILE     Refuse an archive not signed by this ed25519 public key
                       (needs FILE).
  -backend-config=KEY=VALUE|FILE
                       Backend setting, or a file of them (repeatable); with
                       FILE, the plan's recorded backend and workspace apply.
  -auto-approve        Without FILE: apply without asking.
  -plugin-dir=DIR      Look for provider plugins in DIR first (repeatable).
  -install             Install the providers first (as plan init; with FILE,
                       exactly the archive's locked versions).
  -input=false         Accepted for compatibility; plankit never prompts.
  -version             Print the versions (as plan version does) and exit.
  -policy=DIR          With FILE: refuse the plan unless it was made with
                       -policy, with the same policy bundle (digest), and
                       passed (repeatable; -data as given to plan).
  Without FILE, plan's -var, -var-file, -target, -replace, -destroy,
  -refresh-only and -refresh are accepted too. With FILE, -var and
  -var-file give the ephemeral variables (never saved in a plan) their
  values again. -out, -detailed-exitcode and -sign-key are plan's: apply
  refuses them.
`

const showUsage = `Usage: plan show [options] FILE...

  Shows a plan archive, reading nothing but the archive. FILE may also be
  a plan file Terraform (1.5 and later) or OpenTofu (1.6 and later) wrote:
  it is shown without their binaries, configuration or providers.

Options:
  -json             Terraform's JSON plan representation (for a Terraform
                    or OpenTofu plan file, the document its show -json
                    gives).
  -redact           With -json: every sensitive value replaced by
                    "(sensitive value)", for logs and third-party tools.
  -format=FORMAT    markdown: a review summary for a pull-request comment
                    of one or several archives; html: a self-contained
                    report with the dependency graph (plan show
                    -format=html FILE > plan.html).
  -max-bytes=N      Size limit of -format=markdown (default 65000): past
                    it, diffs are left out, the smallest changes first.
  -detailed-exitcode
                    Exit 0 with no changes, 1 on error, 2 with changes.
  -no-color         No colour.
  -verify-key=FILE  Refuse an archive not signed by this Ed25519 public
                    key (PEM), as apply -verify-key does.
`

const graphUsage = `Usage: plan graph [-type=plan|plan-destroy|apply] [-plan=FILE] [-state=PATH] [-plugin-dir=DIR]

  Prints the dependency graph in DOT. With -plan=FILE the graph comes from
  the archive alone (default type apply); without, from the working
  directory's configuration and state (default type plan). Providers are
  found as plan finds them, to read their schemas.

Options:
  -type=TYPE       plan, plan-destroy or apply (apply needs -plan=FILE).
  -plan=FILE       Draw the graph of this plan archive.
  -state=PATH      State file, without -plan (default terraform.tfstate, or
                   the local backend's path).
  -plugin-dir=DIR  Look for provider plugins here first (repeatable).
`

const diffUsage = `Usage: plan diff [-json] [-no-color] A.tfplan B.tfplan

  Lists the resource instances and root outputs whose planned change
  differs between two plans (plankit's, or plan files Terraform or
  OpenTofu wrote), one line each: + planned only in B, - only
  in A, ~ planned differently (with the fields that differ). Exit code 0
  when they propose the same changes, 2 when they differ, 1 on error.

Options:
  -json       {"format_version", "a", "b", "resources": [{"address",
              "status", "actions_a", "actions_b", "changed_fields"}]}.
  -no-color   No colour.
`

const forceUnlockUsage = `Usage: plan force-unlock [-force] [-state=PATH] LOCK_ID

  Removes the state lock with the given ID, for a lock left behind by a
  process that no longer runs. It does not touch the state itself.

Options:
  -force          Do not ask for confirmation (needed when stdin is not a
                  terminal).
  -state=PATH     State file (default terraform.tfstate, or the local
                  backend's path).
  -backend-config=KEY=VALUE|FILE
                  Backend setting (repeatable).

  The lock is removed from the selected workspace (TF_WORKSPACE or
  .terraform/environment).
`

const checkUsage = `Usage: plan check -policy=DIR [-policy=DIR...] [-data=FILE...] [-namespace=NS...] [-all-namespaces] [-policy-timeout=D] [-json] [-no-color] [-verify-key=FILE] FILE

  Checks the plan archive FILE's show -json document against Rego policies
  (conftest's conventions: deny, violation and warn rules in package main).
  Exit code 0 when no policy fails (warnings allowed), 3 when one fails,
  1 on error (a policy or data file invalid, an unknown namespace).

Options:
  -policy=DIR       Rego policies: a directory, read recursively, or a file
                    (repeatable).
  -data=FILE        JSON or YAML data for the policies, a file or directory
                    (repeatable).
  -namespace=NS     Check the rules of package NS (repeatable; default main).
  -all-namespaces   Check the rules of every package the policies declare.
  -policy-timeout=D Stop the check after D (default 10s): exit 1.
  -json             The result as JSON, as recorded by plan -out -policy.
  -no-color         No colour.
  -verify-key=FILE  Refuse an archive not signed by this Ed25519 public
                    key (PEM), as apply -verify-key does.
`
