#!/usr/bin/env bash
# A filter (stdin to stdout) for scripts/build-release.sh's output: drops exactly glibc's warnings
# about a function that needs glibc's shared libraries at run time in a statically linked program,
#   ...: warning: Using 'dlopen' in statically linked applications requires at runtime the shared
#   libraries from the glibc version used for linking
# for the functions the static navdb links in and never runs (docs/building.md says where each
# comes from and why it is harmless): dlopen, getaddrinfo, getpwnam, getpwnam_r, getpwuid,
# getpwuid_r, getgrgid_r, getgrnam_r. Every other line goes through as it is, warnings included
# (another function named in that warning, `mktemp`'s, the compiler's), unbuffered and in order.
set -euo pipefail
known="warning: Using '(dlopen|getaddrinfo|getpwnam|getpwnam_r|getpwuid|getpwuid_r|getgrgid_r|getgrnam_r)' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking$"
exec sed -u -E "\#${known}#d"
