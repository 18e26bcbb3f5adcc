"""The drawing kit the games' faces are made with, below the games (which import it) and the
faces that load them (:mod:`rig.display`, above the games):

* :mod:`rig.draw.kit` -- the palette, text, names, shapes and headless screenshots every screen
  draws with; :mod:`rig.draw.view_dict` -- a game's view read for drawing;
* :mod:`rig.draw.strip` -- the host's message strip at the foot of the window;
* :mod:`rig.draw.phones` -- the phones' QR code and pairing code;
* :mod:`rig.draw.keymodes` -- key names and the machinery every game's key mode shares;
* :mod:`rig.draw.synth` -- sound synthesis (tones, mixes, PCM).

Nothing here imports a game, the shell or a face.  Importing this package does not import
pygame: each module imports it where it draws.
"""

import os

# pygame prints a greeting on import; the rig's CLI output and logs stay clean without it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
