"""Helpers both web tests use with headless Chromium: a whole-page screenshot, waiting for a
condition in the page, reading texts in one step, and the page's script errors."""
import base64

from selenium.webdriver.support.ui import WebDriverWait


def screenshot(driver, path):
    """The whole page, not only the viewport."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 6000), "scale": 1}})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def wait_for(driver, script, timeout=10):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script))


def texts(driver, selector):
    """The rendered text of every element matching `selector`, read in one script: the live card is
    rebuilt on every event, so elements found first and read afterwards may be gone by then."""
    return driver.execute_script("return Array.from(document.querySelectorAll(arguments[0])).map(e => e.innerText)", selector)


def js_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
