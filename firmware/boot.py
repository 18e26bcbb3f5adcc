# Runs once at power-on, before code.py.  Turns on CircuitPython's second USB serial port
# ("data"): the hub writes its binary frames there, so the REPL console stays free and a stray
# byte from the Pi can never interrupt code.py with Ctrl-C.
import usb_cdc

usb_cdc.enable(console=True, data=True)
