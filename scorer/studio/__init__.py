"""The photo studio: synthetic, physically based photos of Subdivision boards with ground truth.

``scene.plan_scene(seed)`` draws everything a photo shows (pure Python); ``render`` turns a plan
into a linear image with Mitsuba 3 (the optional ``studio`` extra), ``cycles`` with Blender's
Cycles (a second renderer, ``bpy``); ``post`` develops it like a phone camera; ``truth.sidecar``
gives the ground truth; ``photo.write_photo`` does it all.
"""
