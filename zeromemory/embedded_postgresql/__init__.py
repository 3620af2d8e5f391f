"""The database backend for the embedded server: Django's PostgreSQL backend that starts (or
joins) the server the first time a process connects (``base.DatabaseWrapper``)."""
