import discord

client = discord.Client(intents=discord.Intents.default())
