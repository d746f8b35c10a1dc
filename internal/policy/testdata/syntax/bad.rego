package main

deny contains msg if {
	msg := "unclosed
}
