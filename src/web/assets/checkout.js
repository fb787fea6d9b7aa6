// Tolem checkout: polls the payment status every 3 s, counts the QR's life down, shows the paid,
// expired or failed panel, and sends the payer to success_url?operation_id=... once paid. Once paid it
// keeps asking for a while until the fiscal receipt's check link comes, and shows it. The page works
// without this script (the QR is server-rendered and every button is a plain form).
(function () {
  'use strict';
  var root = document.getElementById('checkout');
  if (!root) return;
  var d = root.dataset;
  var token = d.token;
  var op = d.op;
  var POLL_MS = 3000;
  var PAID = ['paid', 'partially_refunded', 'refunded'];
  // The receipt is issued by the cash register a few seconds after the payment; a minute or two at most.
  var RECEIPT_WAIT_MS = 2 * 60 * 1000;
  var timer = null;
  var done = false;
  var receiptUntil = 0;

  function showReceipt(url) {
    var a = document.getElementById('receipt-link');
    if (!a || !url) return false;
    a.setAttribute('href', url);
    a.hidden = false;
    return true;
  }

  function receiptShown() {
    var a = document.getElementById('receipt-link');
    return !a || !a.hidden;
  }

  // After the payment: ask for its receipt until it comes or the wait is over (no redirect pending).
  function awaitReceipt() {
    if (!receiptUntil) receiptUntil = Date.now() + RECEIPT_WAIT_MS;
    if (d.redirect || receiptShown() || Date.now() > receiptUntil) return;
    clearTimeout(timer);
    timer = setTimeout(pollReceipt, POLL_MS);
  }

  function pollReceipt() {
    api('/status?op=' + encodeURIComponent(op))
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (!(s && showReceipt(s.check_url))) awaitReceipt();
      })
      .catch(awaitReceipt);
  }

  function show(name) {
    ['qr', 'paid', 'expired', 'failed'].forEach(function (p) {
      var el = document.getElementById('panel-' + p);
      if (el) el.hidden = p !== name;
    });
    root.setAttribute('data-state', name);
    // Once paid there is nothing to cancel.
    var cancel = document.getElementById('cancel-link');
    if (cancel && name === 'paid') cancel.hidden = true;
  }

  function goToShop() {
    if (!d.redirect) return;
    var note = root.querySelector('.redirect-note');
    if (note) note.hidden = false;
    // A moment on the "paid" panel, so the payer sees the payment went through.
    setTimeout(function () {
      window.location.assign(d.redirect);
    }, 1200);
  }

  function onStatus(s) {
    if (done) return;
    if (PAID.indexOf(s.status) >= 0) {
      done = true;
      show('paid');
      if (!showReceipt(s.check_url)) awaitReceipt();
      goToShop();
    } else if (s.status === 'created') {
      schedule(POLL_MS);
    } else {
      done = true;
      show(s.status === 'declined' ? 'failed' : 'expired');
    }
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function api(path, init) {
    init = init || {};
    init.credentials = 'same-origin';
    init.cache = 'no-store';
    init.headers = init.headers || { accept: 'application/json' };
    return fetch('/v2/checkout/' + encodeURIComponent(token) + path, init);
  }

  function poll() {
    if (done) return;
    api('/status?op=' + encodeURIComponent(op))
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (s && s.status) onStatus(s);
        else schedule(POLL_MS * 2);
      })
      .catch(function () {
        schedule(POLL_MS * 2);
      });
  }

  function countdown() {
    var el = document.getElementById('countdown');
    var end = Date.parse(d.expiresAt || '');
    if (!el || !end) return;
    (function tick() {
      if (done) return;
      var left = Math.max(0, Math.round((end - Date.now()) / 1000));
      el.textContent = Math.floor(left / 60) + ':' + ('0' + (left % 60)).slice(-2);
      // At zero the server settles the QR on the next read: expired, or paid at the last second.
      if (left === 0) schedule(0);
      else setTimeout(tick, 1000);
    })();
  }

  var simulate = root.querySelector('form[data-js="simulate"]');
  if (simulate) {
    simulate.addEventListener('submit', function (e) {
      e.preventDefault();
      var button = simulate.querySelector('button');
      button.disabled = true;
      api('/simulate-payment', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ operation_id: op }),
      })
        .then(function (r) {
          return r.json();
        })
        .then(function (s) {
          if (s && s.status) onStatus(s);
          else button.disabled = false;
        })
        .catch(function () {
          button.disabled = false;
        });
    });
  }

  if (d.state === 'paid') {
    goToShop();
    if (op) awaitReceipt();
  } else if (d.state === 'qr' && token && op) {
    countdown();
    schedule(POLL_MS);
  }
})();
