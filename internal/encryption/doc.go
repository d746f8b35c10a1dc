// Package encryption implements OpenTofu's client-side encryption of
// states and plans: the terraform { encryption { ... } } block and
// TF_ENCRYPTION (Config, ParseConfig, Merge), the pbkdf2 and external key
// providers, the aes_gcm, external and unencrypted methods, and the JSON
// envelope OpenTofu 1.7+ writes (Envelope), so that a file encrypted by one
// tool is read by the other.
//
// Guarantees:
//   - Same format as OpenTofu: envelope fields, base64 metadata keyed by
//     key provider address, pbkdf2 metadata and defaults (sha512, 600000
//     iterations, 32-byte salt and key), AES-GCM output as 12-byte nonce ||
//     ciphertext || 16-byte tag.
//   - A fallback method reads what the primary cannot (key rotation, and
//     migration to or from the unencrypted method); DecryptState and
//     DecryptPlan say when they used one (Status Migration).
//   - Errors say what failed and what to do (*Error with a Kind) and never
//     contain passphrases, keys or decrypted data.
//
// The package knows nothing of backends or of the plan archive's layout:
// callers hand it the bytes they store.
package encryption
