package main

# Iterates over a trillion numbers: never ends in practice, in little memory.
deny_forever contains msg if {
	some i in numbers.range(1, 1000000000000)
	i < 0
	msg := "unreachable"
}
