// Drives Debian's Chromium (puppeteer-core, no downloaded browser) through a host page that embeds the hosted widget
// as Mintlify's page shows it (WidgetTest starts the service and serves the page from another origin). Prints one JSON
// object of what the page, the widget's shadow root and its hooks showed; the test asserts on it.
// usage: node widget-browser.mjs <scenario: reader|deep-link|hostile|demo> <host page URL> <profile dir>
import { createRequire } from "node:module";
import puppeteer from "puppeteer-core";

const [scenario, url, profile] = process.argv.slice(2);
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  userDataDir: profile,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const out = { dialogs: [], console: [] };
let snapshot = async () => null; // what the panel showed when a step failed
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  page.on("dialog", async (dialog) => { out.dialogs.push(dialog.message()); await dialog.dismiss(); });
  page.on("console", (message) => out.console.push(message.text()));
  page.on("pageerror", (error) => out.console.push("pageerror: " + error.message));
  await page.goto(url);
  // the demo page records nothing of its own: it is interactive once the widget is on it
  await page.waitForFunction(scenario === "demo" ? () => document.querySelector("[data-docs-assistant]")
    : () => window.__tti !== undefined || window.__initError !== undefined);
  out.tti = await page.evaluate(() => window.__tti ?? null);
  out.initError = await page.evaluate(() => window.__initError ?? null);

  // what the panel shows now, read from its (open) shadow root
  const state = () => page.evaluate(() => {
    const shadow = document.querySelector("[data-docs-assistant]").shadowRoot;
    const answers = [...shadow.querySelectorAll("article.assistant")];
    const last = answers[answers.length - 1];
    return {
      open: !shadow.querySelector(".panel").hidden,
      threadId: shadow.querySelector(".log").dataset.threadId || null,
      questions: [...shadow.querySelectorAll(".msg.user")].map((q) => q.textContent),
      answers: answers.length,
      answerText: last ? last.querySelector(".content").textContent : null,
      answerHtml: last ? last.querySelector(".content").innerHTML : null,
      sources: last ? [...last.querySelectorAll(".sources a")].map((a) => a.href) : [],
      support: shadow.querySelector("a.support").href,
      starters: [...shadow.querySelectorAll(".empty li button")].map((b) => b.textContent),
      log: shadow.querySelector(".log").getAttribute("role") + "/" + shadow.querySelector(".log").getAttribute("aria-live"),
      focus: shadow.activeElement ? shadow.activeElement.className || shadow.activeElement.tagName : null,
      events: (window.__events || []).map((e) => e.type + ":" + e.actor + ":" + e.source),
      errors: (window.__errors || []).map((e) => e.code),
      pwned: window.__pwned || null,
      markup: shadow.querySelectorAll(":is(.content, .sources) :is(script, iframe, object, embed, style, img, svg, "
        + "form, button, input, details, [onerror], [onclick], [onload], [onmouseover], [ontoggle], [style])").length,
      badLinks: [...shadow.querySelectorAll(".content a[href]")].filter((a) => !/^(https?|mailto):/.test(a.protocol)).length,
    };
  });
  snapshot = state;
  // the answer under way has finished when its thread id is known and the Stop button is gone
  const answered = (count) => page.waitForFunction((n) => {
    const shadow = document.querySelector("[data-docs-assistant]").shadowRoot;
    return shadow.querySelectorAll("article.assistant").length >= n && shadow.querySelector(".stop").hidden
      && shadow.querySelector(".log").dataset.threadId;
  }, {}, count);
  // how the answer's text grew while it streamed: the distinct lengths the panel showed
  const watchGrowth = () => page.evaluate(() => {
    const shadow = document.querySelector("[data-docs-assistant]").shadowRoot;
    window.__lengths = new Set();
    window.__stopSeen = false;
    new MutationObserver(() => {
      const contents = shadow.querySelectorAll("article.assistant .content");
      const last = contents[contents.length - 1];
      if (last && last.textContent) window.__lengths.add(last.textContent.length);
      if (!shadow.querySelector(".stop").hidden) window.__stopSeen = true;
    }).observe(shadow, { subtree: true, childList: true, characterData: true, attributes: true });
  });

  if (scenario === "reader") {
    out.initial = await state();
    await watchGrowth();
    await page.evaluate(() => window.MintlifyAssistant.ask("How do I change the port?", { source: "test" }));
    await answered(1);
    out.first = await state();
    out.renders = await page.evaluate(() => window.__lengths.size);
    out.stopSeen = await page.evaluate(() => window.__stopSeen);
    // Helpful, by the reader's click
    await page.evaluate(() => document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelector("article.assistant button[data-rating=up]").click());
    await page.waitForFunction(() => document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelector("article.assistant button[data-rating=up]").getAttribute("aria-pressed") === "true");
    // a follow-up typed with the keyboard continues the thread
    await page.evaluate(() => document.querySelector("[data-docs-assistant]").shadowRoot.querySelector("textarea").focus());
    await page.keyboard.type("And the management port?");
    await page.keyboard.press("Enter");
    await answered(2);
    out.followUp = await state();
    // accessibility, with the panel open and two answers in it
    await page.addScriptTag({ path: axePath });
    out.axe = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] }))
      .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) })));
    // Escape closes and gives focus back to the trigger; Ctrl+I opens with the composer focused
    await page.keyboard.press("Escape");
    out.afterEscape = await state();
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyI");
    await page.keyboard.up("Control");
    out.afterShortcut = await state();
    // reset() starts a new thread: the next answer has another thread id
    await page.evaluate(() => window.MintlifyAssistant.reset());
    out.afterReset = await state();
    await page.evaluate(() => window.MintlifyAssistant.ask("How do I embed the widget?"));
    await answered(1);
    out.afterResetAnswer = await state();
    await page.evaluate(() => window.MintlifyAssistant.update({ labels: { title: "Docs copilot" }, starterQuestions: null }));
    out.title = await page.evaluate(() => document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelector("h2").textContent);
    await page.evaluate(() => window.MintlifyAssistant.destroy());
    out.afterDestroy = await page.evaluate(() => document.querySelectorAll("[data-docs-assistant]").length);
    out.events = await page.evaluate(() => window.__events.map((e) => e.type + ":" + e.actor + ":" + e.source));
  } else if (scenario === "deep-link" || scenario === "demo") {
    await answered(1);
    out.first = await state();
  } else if (scenario === "hostile") {
    await page.evaluate(() => window.MintlifyAssistant.ask("Show me everything", { source: "test" }));
    // the model's first token is shown while the model server holds the rest: the answer streams
    await page.waitForFunction(() => {
      const shadow = document.querySelector("[data-docs-assistant]").shadowRoot;
      const content = shadow.querySelector("article.assistant .content");
      return content && content.textContent.includes("Result") && !shadow.querySelector(".stop").hidden;
    });
    out.partial = await state();
    process.stdout.write("partial\n"); // WidgetTest releases the rest of the answer
    await answered(1);
    // give any handler, timer or navigation a chance to run, and hover and click what was rendered
    await page.evaluate(() => document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelectorAll(".content a, .content *").forEach((element) => {
        element.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    out.first = await state();
    out.url = page.url();
    // Stop ends an answer that would never end, and the model call with it
    await page.evaluate(() => window.MintlifyAssistant.ask("Keep going"));
    await page.waitForFunction(() => [...document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelectorAll("article.assistant .content")].pop().textContent.includes("more"));
    await page.evaluate(() => document.querySelector("[data-docs-assistant]").shadowRoot.querySelector(".stop").click());
    await page.waitForFunction(() => document.querySelector("[data-docs-assistant]").shadowRoot
      .querySelector(".stop").hidden);
    out.stopped = await state();
  }
} catch (error) {
  out.error = String(error.stack || error);
  out.failedAt = await snapshot().catch(() => null);
  process.exitCode = 1;
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
