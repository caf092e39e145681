/* global location, URLSearchParams */
// A stand-in for Stripe.js (https://js.stripe.com/v3/) in the booking widget's browser tests: the subset the
// widget calls — Stripe(publishableKey), stripe.elements({ clientSecret }), elements.create('payment'),
// element.mount(node), element.destroy(), stripe.confirmPayment({ elements, redirect: 'if_required' }) — against
// the local Stripe-speaking server that serves this file (test/rental/journey/stripe-server.ts). The "Payment
// Element" is a labelled card-number field; 4000 0000 0000 0002 is declined, as with Stripe's test cards.
(function () {
  'use strict';
  var script = document.currentScript;
  var api = new URL(script && script.src ? script.src : location.href).origin;

  function Stripe(publishableKey) {
    if (!/^pk_(test|live)_/.test(String(publishableKey))) throw new Error('Invalid publishable key');
    return {
      elements: function (options) {
        var clientSecret = options && options.clientSecret;
        var input = null;
        return {
          _clientSecret: clientSecret,
          _card: function () {
            return input ? input.value.replace(/\s+/g, '') : '';
          },
          create: function (type) {
            if (type !== 'payment') throw new Error('Only the payment element is stood in for');
            var wrap = null;
            return {
              mount: function (node) {
                wrap = document.createElement('label');
                wrap.textContent = 'Card number ';
                input = document.createElement('input');
                input.name = 'cardnumber';
                input.autocomplete = 'cc-number';
                input.inputMode = 'numeric';
                wrap.append(input);
                node.append(wrap);
              },
              destroy: function () {
                if (wrap) wrap.remove();
              },
            };
          },
        };
      },
      confirmPayment: function (o) {
        var els = o && o.elements;
        var secret = els && els._clientSecret;
        var id = String(secret || '').split('_secret_')[0];
        var body = new URLSearchParams({
          client_secret: secret || '',
          'payment_method_data[card][number]': els ? els._card() : '',
        });
        return fetch(api + '/v1/payment_intents/' + encodeURIComponent(id) + '/confirm', {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + publishableKey, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
        })
          .then(function (res) {
            return res.json();
          })
          .then(function (json) {
            return json.error ? { error: json.error } : { paymentIntent: json };
          });
      },
    };
  }

  window.Stripe = Stripe;
})();
