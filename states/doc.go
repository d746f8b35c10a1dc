// Package states is plankit's in-memory model of a state: every resource
// instance object the last apply left behind, by module instance, resource
// and instance key, plus the root module's output values.
//
// The model is format-agnostic: package statefile reads and writes it as
// Terraform's v4 JSON, package statemgr stores it (locks, atomic writes,
// backups) and persists it in the background during apply.
//
// Objects are stored in their encoded form, ResourceInstanceObjectSrc
// (attributes as raw JSON), so a state read from disk and written back keeps
// its attribute JSON untouched and nothing needs a provider schema until the
// core decodes an object with (*ResourceInstanceObjectSrc).Decode.
//
// A *ResourceInstanceObjectSrc is immutable once it is handed to a State
// setter: to change an object, build a new one (or DeepCopy it) and set it.
// That rule lets (*State).Snapshot share objects between the live state and
// the copy a background writer encodes, and lets file writers cache each
// object's encoding (see CachedEncoding).
package states
