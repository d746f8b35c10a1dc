package command

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/tfdiags"
)

// checkPlanOptions refuses plan options that would otherwise be ignored
// or contradict each other, as usage errors: nothing has been read yet.
func checkPlanOptions(f *planFlags) string {
	switch {
	case f.signKey != "" && f.out == "":
		return "-sign-key signs the saved plan archive, so it needs -out=FILE; without -out there is nothing to sign"
	case f.policy.check() != "":
		return f.policy.check()
	case f.refreshOnly && !f.refresh:
		return "-refresh-only and -refresh=false cannot be used together: a refresh-only plan only refreshes, so there would be nothing to do"
	}
	return ""
}

// planOutputOptions are plan's options about the plan it writes, which
// apply does not declare, with the usage error apply gives for each.
var planOutputOptions = map[string]string{
	"out":               refusedByApply("-out"),
	"detailed-exitcode": refusedByApply("-detailed-exitcode"),
	"sign-key":          refusedByApply("-sign-key"),
}

func refusedByApply(opt string) string {
	return "apply does not take " + opt + ": to save, sign or test a plan, run plan with it, then apply the saved plan file"
}

// checkApplyOptions refuses -verify-key without a plan file (there is
// no archive to verify). Plan's options with a plan file are refused by
// Apply itself.
func checkApplyOptions(fs *flagSet, f *applyFlags) string {
	if f.verifyKey != "" && fs.NArg() == 0 {
		return "-verify-key checks the signature of a saved plan file, but no plan file was given: apply -verify-key=KEY FILE"
	}
	return ""
}

// checkSignKey loads -sign-key before anything is planned, so a missing
// or malformed key is reported at once rather than after the whole plan
// is printed.
func checkSignKey(wd string, f *planFlags) hcl.Diagnostics {
	if f.signKey == "" {
		return nil
	}
	if _, err := planfile.LoadSigningKey(operation.Resolve(wd, f.signKey)); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to load the signing key",
			"Reading -sign-key %s failed: %s\n\nNothing was planned. -sign-key takes an Ed25519 private key in PEM (PKCS#8), such as one made by: openssl genpkey -algorithm ed25519 -out plan-key.pem", f.signKey, err)}
	}
	return nil
}
