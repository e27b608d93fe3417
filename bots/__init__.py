"""Bots: the SDK (a bot is one function of a view and a prompt) and the bots hexlog ships."""
