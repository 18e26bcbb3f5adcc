"""The phone companion: the rig's web face (:mod:`rig.web.face`)."""
