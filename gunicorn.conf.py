"""gunicorn's settings for this project, read from the project root by ``./zm serve`` (and by any
``gunicorn`` started there); command-line flags override them."""

# The longest request the API accepts must reach it: a feed query's q is up to 500 characters,
# which percent-encoded (up to 12 bytes each) make a request line of about 6.2 KB. gunicorn's
# default limit (4094 bytes) refused those with an HTML 400 of its own, outside the API's error
# shape. 8190 is gunicorn's ceiling; longer lines are still refused before the app, which keeps
# the limit's protection against oversized requests.
limit_request_line = 8190
