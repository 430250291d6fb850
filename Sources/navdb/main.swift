NavDB.main()
