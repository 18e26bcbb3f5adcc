"""The relic hub's logic: plain Python that runs on the Pico (CircuitPython 9) and on CPython.

Nothing here touches ``board``, ``busio``, ``adafruit_lis3dh`` or ``usb_cdc``; ``code.py`` builds
the real sensors and the USB writer and hands them to :class:`relichub.hub.Hub`.  Tests and the
virtual hub (``sim/relichub.py``) hand it fakes instead.
"""
