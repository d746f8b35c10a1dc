package main

deny contains "main denies" if false
