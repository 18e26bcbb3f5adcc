"""The table: the museum box's hardware, below the games.

It turns the world into timestamped inputs and effects into the world, and knows no game:

* pure parts (the standard library only, importable by any game's rules): :mod:`.names` (the
  inputs' names and marks), :mod:`.debounce` (the table's timings, the start button),
  :mod:`.protocol` (the relic hub's serial frames, which ``firmware/build.py`` copies to the
  Pico), :mod:`.parts` (the parts a game declares it uses) and :mod:`.reflex` (the
  touch-to-buzzer reflex, declared here as data);
* the settings (:mod:`.settings`: the pin map, ``[pins]``, ``[detect]``, ``[tof]``, ``[hub]``);
* the device adapters, which import their hardware libraries lazily: :mod:`.pins` (gpiozero),
  :mod:`.hub` (pyserial), :mod:`.tof` (Blinka and the VL53L0X driver), :mod:`.outputs` (the
  buzzer's patterns and the lamps), :mod:`.sources` (what feeds a host's inbox),
  :mod:`.backend` (the Pi's devices, or the simulator's), :mod:`.threads` (bounded joins).

Nothing here imports ``rig.games``, ``rig.shell``, ``rig.web``, ``rig.display`` or ``rig.links``.
"""
