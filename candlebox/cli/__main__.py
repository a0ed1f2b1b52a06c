from candlebox.cli import main

main()
