package lib.util

is_network(rc) if startswith(rc.type, "aws_vpc")
