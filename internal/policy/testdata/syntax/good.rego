package main

deny contains "x" if false
