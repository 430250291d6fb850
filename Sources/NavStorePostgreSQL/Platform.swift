// Every file of the target sees NavStore and, through it, the C library and Foundation that
// NavStoreModel's Platform.swift imports once for the package.
@_exported import NavStore
