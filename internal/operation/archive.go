package operation

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// WriteArchive writes the archive at path, inside the plan target's
// envelope when plans are encrypted: nothing of the plan, its states or
// its configuration is readable without the key. The signature, if any,
// covers the archive itself, so it verifies after decryption. Atomic.
func WriteArchive(path string, args *planfile.CreateArgs, enc *encryption.Encryption) error {
	if enc == nil || !enc.Plan().Encrypted() {
		return planfile.Write(path, args)
	}
	var buf bytes.Buffer
	if err := planfile.WriteTo(&buf, args); err != nil {
		return err
	}
	out, err := enc.Plan().EncryptPlan(buf.Bytes())
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, out, 0o644, nil)
}

// maxEnvelope bounds an encrypted archive: base64 of the largest archive
// planfile accepts, plus room for the JSON around it.
func maxEnvelope() int64 { return planfile.DefaultLimits().MaxArchiveSize/3*4 + 1<<20 }

// OpenArchive is the one way a command opens a plan archive: it opens and
// checks the archive at path, decrypting it first when it is in an
// envelope, without decoding any entry. A clear archive is refused when
// enc requires plans to be encrypted; with enc nil (no encryption
// configured) an encrypted one is refused, saying so.
func OpenArchive(path string, enc *encryption.Encryption, opts ...planfile.Option) (*planfile.Reader, hcl.Diagnostics) {
	if enc == nil {
		enc, _ = encryption.New(nil, encryption.Options{})
	}
	t := enc.Plan()
	f, err := safeio.Open(path) // a FIFO or device is refused, never waited on
	if err != nil {
		return nil, ArchiveDiags(&planfile.Error{Kind: planfile.KindIO, Path: path, Err: err})
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("{")) {
		// Not an envelope: the configuration may still require one.
		if _, _, err := t.DecryptPlan(head); err != nil {
			return nil, EncryptionDiags(fmt.Errorf("%s: %w", path, err), "plan")
		}
		r, err := planfile.Open(path, opts...)
		if err != nil {
			return nil, ArchiveDiags(err)
		}
		return r, nil
	}
	if st, err := f.Stat(); err == nil && st.Size() > maxEnvelope() {
		return nil, ArchiveDiags(&planfile.Error{Kind: planfile.KindTooLarge, Path: path, Err: fmt.Errorf("the encrypted plan is %d bytes; at most %d are accepted", st.Size(), maxEnvelope())})
	}
	rest, err := io.ReadAll(f)
	if err != nil {
		return nil, ArchiveDiags(&planfile.Error{Kind: planfile.KindIO, Path: path, Err: err})
	}
	plain, _, err := t.DecryptPlan(append(head, rest...))
	if err != nil {
		return nil, EncryptionDiags(fmt.Errorf("%s: %w", path, err), "plan")
	}
	r, err := planfile.OpenBytes(plain, opts...)
	if err != nil {
		var pe *planfile.Error
		if errors.As(err, &pe) {
			pe.Path = path
		}
		return nil, ArchiveDiags(err)
	}
	return r, nil
}

// ReadArchivePlan decodes the plan of the open archive r; on error r is
// closed.
func ReadArchivePlan(r *planfile.Reader) (*plans.Plan, hcl.Diagnostics) {
	p, err := r.ReadPlan()
	if err != nil {
		r.Close()
		return nil, ArchiveDiags(err)
	}
	return p, nil
}

// ArchiveDiags explains why a plan archive was refused. The planfile
// error already names the file, the check that failed and the entry.
func ArchiveDiags(err error) hcl.Diagnostics {
	switch {
	case errors.Is(err, planfile.KindUnsigned), errors.Is(err, planfile.KindSignature):
		return hcl.Diagnostics{tfdiags.Errorf("Plan signature check failed",
			"%s\n\nNothing in the archive was used. Use only archives signed with the key that -verify-key trusts (plan -sign-key=FILE).", err)}
	case errors.Is(err, planfile.KindIO):
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read plan file", "%s", err)}
	case errors.Is(err, planfile.KindForeignPlan):
		return hcl.Diagnostics{tfdiags.Errorf("Plan file from Terraform or OpenTofu",
			"%s\n\nShow or apply it with the tool that made it (terraform show/apply FILE, tofu show/apply FILE), or make a plankit plan from the same configuration and state with plan -out=FILE.", err)}
	case errors.Is(err, planfile.KindFormatVersion):
		return hcl.Diagnostics{tfdiags.Errorf("Unsupported plan file format",
			"%s\n\nApply the plan with the plankit version that made it, or plan again.", err)}
	}
	return hcl.Diagnostics{tfdiags.Errorf("Invalid plan file",
		"%s\n\nThe file is not a usable plan archive; nothing in it was used. Create a new plan with plan -out=FILE.", err)}
}

// VerifyKeyOptions are the archive-opening options for -verify-key=FILE
// (none when file is empty): the archive's signature is then checked
// while it is opened, before any entry is decoded.
func VerifyKeyOptions(wd, file string) ([]planfile.Option, hcl.Diagnostics) {
	if file == "" {
		return nil, nil
	}
	pub, err := planfile.LoadVerifyKey(Resolve(wd, file))
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to load the verify key", "Reading -verify-key %s failed: %s", file, err)}
	}
	return []planfile.Option{planfile.WithVerifyKey(pub)}, nil
}
