// Every file of the target sees NavStoreTools and, through it, the C library and Foundation that
// NavStoreModel's Platform.swift imports once for the package.
@_exported import NavStoreTools
