package states

import (
	"sync/atomic"
	"unsafe"
)

// CachedEncoding returns build(os), computing it only when os has no cached
// result for format or os changed since it was cached. File writers use it so
// that persisting a large state again and again (the background persister
// during apply) copies each unchanged object's bytes instead of re-encoding
// its attributes: O(1) per unchanged object to validate, plus the copy.
//
// The cache is validated against a fingerprint of os's fields: scalar values
// and the identity (address and length) of each slice. Replacing a field is
// noticed; editing a slice's bytes in place is not, which is one more reason
// objects are immutable once stored. Safe for concurrent use; build must not
// modify os and must return bytes nobody modifies afterwards.
func (os *ResourceInstanceObjectSrc) CachedEncoding(format string, build func(*ResourceInstanceObjectSrc) ([]byte, error)) ([]byte, error) {
	fp := os.fingerprint(format)
	if e := os.enc.load(); e != nil && e.fp == fp {
		return e.data, nil
	}
	data, err := build(os)
	if err != nil {
		return nil, err
	}
	os.enc.store(&encEntry{fp: fp, data: data})
	return data, nil
}

type encFingerprint struct {
	format               string
	schemaVersion        uint64
	status               ObjectStatus
	cbd, skipDestroy     bool
	attrs, private       unsafe.Pointer
	attrsLen, privateLen int
	paths, deps          unsafe.Pointer
	pathsLen, depsLen    int
	identity             *ObjectIdentity
	identityVersion      uint64
	identityJSON         unsafe.Pointer
	identityJSONLen      int
}

func (os *ResourceInstanceObjectSrc) fingerprint(format string) encFingerprint {
	fp := encFingerprint{
		format:        format,
		schemaVersion: os.SchemaVersion,
		status:        os.Status,
		cbd:           os.CreateBeforeDestroy,
		skipDestroy:   os.SkipDestroy,
		attrs:         unsafe.Pointer(unsafe.SliceData(os.AttrsJSON)),
		attrsLen:      len(os.AttrsJSON),
		private:       unsafe.Pointer(unsafe.SliceData(os.Private)),
		privateLen:    len(os.Private),
		paths:         unsafe.Pointer(unsafe.SliceData(os.AttrSensitivePaths)),
		pathsLen:      len(os.AttrSensitivePaths),
		deps:          unsafe.Pointer(unsafe.SliceData(os.Dependencies)),
		depsLen:       len(os.Dependencies),
		identity:      os.Identity,
	}
	if os.Identity != nil {
		fp.identityVersion = os.Identity.SchemaVersion
		fp.identityJSON = unsafe.Pointer(unsafe.SliceData(os.Identity.JSON))
		fp.identityJSONLen = len(os.Identity.JSON)
	}
	return fp
}

type encEntry struct {
	fp   encFingerprint
	data []byte
}

// encCacheSlot is a pointer accessed with sync/atomic functions rather than
// an atomic.Pointer, so that copying a ResourceInstanceObjectSrc by value
// stays legal (atomic.Pointer forbids copies); a copy shares the entry, and
// the fingerprint tells whether it still fits.
type encCacheSlot struct{ p unsafe.Pointer }

func (s *encCacheSlot) load() *encEntry   { return (*encEntry)(atomic.LoadPointer(&s.p)) }
func (s *encCacheSlot) store(e *encEntry) { atomic.StorePointer(&s.p, unsafe.Pointer(e)) }

// copyTo moves a valid cached entry of from onto its deep copy to, whose
// slices live elsewhere: same bytes, fingerprint of the copy.
func (s *encCacheSlot) copyTo(from, to *ResourceInstanceObjectSrc) {
	e := s.load()
	if e == nil || e.fp != from.fingerprint(e.fp.format) {
		return
	}
	to.enc.store(&encEntry{fp: to.fingerprint(e.fp.format), data: e.data})
}
