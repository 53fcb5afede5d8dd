/// What a person sees when a login link they opened in a browser is unknown, used or expired: words
/// and a way on (the companion's first page, where the browser can pair), instead of the API's JSON.
/// Static text: nothing from the request is echoed into it.
enum LoginLinkPage {
    static let spent = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <title>Login link already used · Chronoception</title>
        <link rel="stylesheet" href="/app.css">
        </head>
        <body>
        <main id="main">
        <h1>This login link no longer works</h1>
        <section class="card" data-role="login-link-spent">
        <p>A login link works once, and only for ten minutes. This one has already been used, has expired, or was never made by this device.</p>
        <p>To use the companion in this browser, open its first page and pair this browser: you give it a name, then hold the device's button down to approve.</p>
        <p><a class="button" href="/">Open the companion</a></p>
        <p class="hint">If this browser was already paired, the same page simply opens.</p>
        </section>
        </main>
        </body>
        </html>

        """
}
