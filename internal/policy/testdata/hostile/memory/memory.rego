package main

# Builds an array of a billion objects: tens of gigabytes.
deny_hoard contains msg if {
	hoard := [{"i": i, "s": "padding padding padding"} | some i in numbers.range(1, 1000000000)]
	count(hoard) < 0
	msg := "unreachable"
}
