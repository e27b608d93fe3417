"""The contract every hexlog part agrees on: commands, events, prompts and views.

msgspec Structs in tagged unions (the tag is the class name and is never reused for another
shape). Nothing here does I/O; the engine, the services and the bots all import from here.
"""
