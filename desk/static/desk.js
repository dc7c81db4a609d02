// The desk's progressive enhancement: sign-in from the Mini App, Telegram's theme, sortable and
// filterable tables, keyboard scoring. Pages work as plain forms and links without it.
(function () {
  "use strict";

  var THEME_KEYS = {
    bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link",
    button_color: "--button", button_text_color: "--button-text", secondary_bg_color: "--secondary-bg"
  };

  function hashParams() {
    return new URLSearchParams(window.location.hash.slice(1));
  }

  function paint(theme) {
    if (!theme) return;
    Object.keys(THEME_KEYS).forEach(function (key) {
      var value = theme[key];
      if (typeof value === "string" && /^#[0-9a-fA-F]{3,8}$/.test(value)) {
        document.documentElement.style.setProperty(THEME_KEYS[key], value);
      }
    });
    var bg = theme.bg_color;
    if (typeof bg === "string" && /^#[0-9a-fA-F]{6}$/.test(bg)) {  // dark or light, for form controls
      var n = parseInt(bg.slice(1), 16);
      var light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 128;
      document.documentElement.style.setProperty("color-scheme", light ? "light" : "dark");
      document.documentElement.dataset.scheme = light ? "light" : "dark";
    }
  }

  function keep(theme) {
    try { sessionStorage.setItem("desk-theme", JSON.stringify(theme)); } catch (e) { /* private mode */ }
  }

  // Telegram hands the page its theme in the URL fragment (tgWebAppThemeParams) and, when its
  // script is loaded, in Telegram.WebApp.themeParams; keep it for the session's other pages.
  function applyTheme() {
    var theme = null;
    var tg = window.Telegram && window.Telegram.WebApp;
    if (tg && tg.themeParams && Object.keys(tg.themeParams).length) {
      theme = tg.themeParams;
    } else if (hashParams().get("tgWebAppThemeParams")) {
      try { theme = JSON.parse(hashParams().get("tgWebAppThemeParams")); } catch (e) { theme = null; }
    }
    if (theme) {
      keep(theme);
    } else {
      try { theme = JSON.parse(sessionStorage.getItem("desk-theme") || "null"); } catch (e) { theme = null; }
    }
    paint(theme);
  }

  // A live theme change (the user switches Telegram to dark): Telegram's "theme_changed" event
  // (core.telegram.org/api/web-events). The apps call window.Telegram.WebView.receiveEvent (or
  // TelegramGameProxy.receiveEvent); Telegram Web posts a message from the parent frame. Without
  // Telegram's own script (the CSP allows only ours), this is the small part of it the desk needs.
  function onEvent(type, data) {
    if (type === "theme_changed" && data && data.theme_params) {
      keep(data.theme_params);
      paint(data.theme_params);
    }
  }

  function postEvent(type, data) {
    var body = JSON.stringify(data || "");
    if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
      window.TelegramWebviewProxy.postEvent(type, body);
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || "" }), "https://web.telegram.org");
    }
  }

  function listenForTheme() {
    var tg = window.Telegram && window.Telegram.WebApp;
    if (tg && tg.onEvent) {  // Telegram's script is on the page after all
      tg.onEvent("themeChanged", function () { keep(tg.themeParams); paint(tg.themeParams); });
      return;
    }
    window.Telegram = window.Telegram || {};
    var chained = window.Telegram.WebView && window.Telegram.WebView.receiveEvent;
    var receive = function (type, data) { onEvent(type, data); if (chained) chained(type, data); };
    window.Telegram.WebView = window.Telegram.WebView || {};
    window.Telegram.WebView.receiveEvent = receive;
    window.TelegramGameProxy = { receiveEvent: receive };
    window.TelegramGameProxy_receiveEvent = receive;
    window.addEventListener("message", function (event) {
      if (event.source !== window.parent || window.parent === window) return;
      if (event.origin !== "https://web.telegram.org") return;
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message && message.eventType) onEvent(message.eventType, message.eventData);
    });
    postEvent("web_app_ready");
    postEvent("web_app_request_theme");
  }

  function post(url, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (k) { body.append(k, fields[k]); });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin" });
  }

  // The secret (initData or a login link's token) is in the fragment, which is never sent to a
  // server; it goes in a POST body and is wiped from the address bar.
  function signIn() {
    var box = document.getElementById("login");
    if (!box) return;
    var status = document.getElementById("login-status");
    var params = hashParams();
    var tg = window.Telegram && window.Telegram.WebApp;
    var initData = (tg && tg.initData) || params.get("tgWebAppData");
    var request;
    if (initData) {
      request = post("/desk/auth", { init_data: initData });
    } else if (window.location.pathname === "/desk/link" && window.location.hash.length > 1) {
      request = post("/desk/link", { token: window.location.hash.slice(1) });
    } else if (box.dataset.signedIn) {
      window.location.replace("/desk/team");
      return;
    } else {
      status.textContent = box.dataset.outside;
      return;
    }
    history.replaceState(null, "", window.location.pathname);
    request.then(function (response) {
      if (!response.ok) throw new Error("refused");
      return response.json();
    }).then(function (answer) {
      window.location.replace(answer.next);
    }).catch(function () {
      status.textContent = box.dataset.failed;
      status.id = "login-failed";
    });
  }

  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    var raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
    return numeric ? parseFloat(raw) || 0 : raw.toLowerCase();
  }

  function sortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, index) {
      th.tabIndex = 0;
      th.addEventListener("click", function () {
        var numeric = th.dataset.type === "num";
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  function filters() {
    document.querySelectorAll("input[data-filter-for]").forEach(function (input) {
      var table = document.getElementById(input.dataset.filterFor);
      input.addEventListener("input", function () {
        var needle = input.value.trim().toLowerCase();
        Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
          row.hidden = needle !== "" && row.textContent.toLowerCase().indexOf(needle) === -1;
        });
      });
    });
  }

  function reviewKeys() {
    if (!document.getElementById("review-card")) return;
    document.addEventListener("keydown", function (event) {
      if (event.target.matches && event.target.matches("input, select, textarea")) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      var target = null;
      if (/^[0-9]$/.test(event.key)) {
        target = document.querySelector('.scores button[data-key="' + event.key + '"]');
      } else if (event.key === "ArrowRight") {
        target = document.querySelector('a[data-nav="next"]');
      } else if (event.key === "ArrowLeft") {
        target = document.querySelector('a[data-nav="prev"]');
      }
      if (target) {
        event.preventDefault();
        target.click();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    applyTheme();
    listenForTheme();
    signIn();
    document.querySelectorAll("table.sortable").forEach(sortable);
    filters();
    reviewKeys();
    document.querySelectorAll("[data-print]").forEach(function (b) {
      b.addEventListener("click", function () { window.print(); });
    });
  });
})();
