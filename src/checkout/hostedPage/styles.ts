/**
 * The page's stylesheet and script, sent inline under the response's CSP nonce (no other origin, no
 * file to cache-bust). Error lines keep their height when empty, so a
 * message appearing never moves the button under the shopper's pointer. Mobile first: one column; from 760px the summary and the form sit side by side.
 */
export const pageCss = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:960px;margin:0 auto;padding:16px}
h1{font-size:1.4rem;margin:8px 0 16px}
h2{font-size:1.1rem;margin:0 0 12px}
.panel{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:16px;margin-bottom:16px}
@media (min-width:760px){.columns{display:grid;grid-template-columns:1fr 1fr;gap:24px}.panel{margin-bottom:0}}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:6px 0;vertical-align:top}
td.amount,th.amount{text-align:right;white-space:nowrap}
tfoot th,tfoot td{border-top:1px solid #d0d4da}
.total th,.total td{font-weight:700;font-size:1.1rem}
label{display:block;font-weight:600;margin:12px 0 4px}
input{width:100%;font:inherit;padding:10px;border:1px solid #6b7280;border-radius:6px;background:#fff;color:#1a1a1a}
input:focus{outline:3px solid #1d4ed8;outline-offset:1px}
input[aria-invalid=true]{border-color:#b91c1c}
.row{display:flex;gap:12px;align-items:flex-end}.row>div{flex:1}
.error{color:#b91c1c;font-size:.9rem;margin:4px 0 0;min-height:1.35em}
.brand{font-size:.9rem;color:#374151;margin:4px 0 0}
.alert{border:1px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:6px;padding:10px 12px;margin-bottom:12px}
.notice{border:1px solid #166534;background:#f0fdf4;color:#14532d;border-radius:6px;padding:10px 12px;margin-bottom:12px}
button,.button{display:inline-block;width:100%;margin-top:16px;padding:12px;font:inherit;font-weight:700;text-align:center;color:#fff;background:#1d4ed8;border:0;border-radius:6px;cursor:pointer;text-decoration:none}
.offer-title{font-size:1.25rem;font-weight:700;margin:8px 0}
button.secondary{width:auto;margin-top:8px;padding:8px 14px;background:#374151}
button[disabled]{background:#6b7280;cursor:progress}
a{color:#1d4ed8}
.muted{color:#4b5563;font-size:.9rem}
.promo{display:flex;gap:8px}.promo>input{flex:1}.promo>button{margin-top:0}
`;

/** The page's icon, served by the engine: a browser asks for one, and a 404 would be noise. */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="12" y="2" rx="2" fill="#1d4ed8"/><rect width="16" height="3" y="5" fill="#fff"/></svg>`;

/**
 * Progressive help only: the server checks every field again. Shows the brand, formats the number
 * in groups, checks Luhn, expiry and CVC before posting, and disables the button once posted.
 */
export const cardFormScript = `
(function(){
  var form=document.getElementById('card-form');if(!form)return;
  var brands=[['amex',/^3[47]/,[15],4],['diners',/^3(0[0-5]|[689])/,[14,16,19],3],['jcb',/^35(2[89]|[3-8])/,[16,17,18,19],3],
    ['mastercard',/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/,[16],3],['discover',/^(6011|64[4-9]|65)/,[16,19],3],
    ['unionpay',/^62/,[16,17,18,19],3],['visa',/^4/,[13,16,19],3]];
  var names={amex:'American Express',diners:'Diners Club',jcb:'JCB',mastercard:'Mastercard',discover:'Discover',unionpay:'UnionPay',visa:'Visa'};
  function brandOf(d){for(var i=0;i<brands.length;i++)if(brands[i][1].test(d))return brands[i];return null}
  function luhn(d){var s=0;for(var i=0;i<d.length;i++){var n=+d[d.length-1-i];if(i%2){n*=2;if(n>9)n-=9}s+=n}return s%10===0}
  function field(id){return document.getElementById(id)}
  function show(id,message){var input=field(id),out=field(id+'-error');out.textContent=message||'';input.setAttribute('aria-invalid',message?'true':'false')}
  var number=field('cardNumber'),expiry=field('expiry'),cvc=field('cvc'),name=field('cardholderName'),brandOut=field('card-brand');
  function digits(){return number.value.replace(/\\D/g,'')}
  number.addEventListener('input',function(){var b=brandOf(digits());brandOut.textContent=b?names[b[0]]:''});
  function checkNumber(){var d=digits(),b=brandOf(d);if(!d)return 'Enter your card number.';
    if(!/^\\d{12,19}$/.test(d)||(b&&b[2].indexOf(d.length)<0)||!luhn(d))return 'This card number is not valid. Check it and try again.';return ''}
  function checkExpiry(){var m=/^\\s*(\\d{1,2})\\s*\\/\\s*(\\d{2}|\\d{4})\\s*$/.exec(expiry.value);if(!m)return 'Enter the expiry date as MM / YY.';
    var month=+m[1],year=+m[2];if(year<100)year+=2000;if(month<1||month>12)return 'The month must be between 01 and 12.';
    var now=new Date();if(year<now.getFullYear()||(year===now.getFullYear()&&month<now.getMonth()+1))return 'This card has expired.';return ''}
  function checkCvc(){var b=brandOf(digits()),len=b?b[3]:3;return new RegExp('^\\\\d{'+len+'}$').test(cvc.value.trim())?'':'Enter the '+len+'-digit security code.'}
  function checkName(){return name.value.trim()?'':'Enter the name on the card.'}
  var checks=[['cardNumber',checkNumber],['expiry',checkExpiry],['cvc',checkCvc],['cardholderName',checkName]];
  checks.forEach(function(c){field(c[0]).addEventListener('blur',function(){if(field(c[0]).value)show(c[0],c[1]())})});
  form.addEventListener('submit',function(event){var first=null;
    checks.forEach(function(c){var message=c[1]();show(c[0],message);if(message&&!first)first=field(c[0])});
    if(first){event.preventDefault();first.focus();return}
    var button=field('pay-button');if(form.dataset.sent){event.preventDefault();return}
    form.dataset.sent='1';setTimeout(function(){button.disabled=true;button.setAttribute('aria-busy','true')},0)});
})();
`;

/** The result page for a payment that needs the cardholder at the bank: go there without a click when scripts run. */
export const continueScript = `
(function(){var link=document.getElementById('continue-link');if(link&&link.dataset.auto==='1')window.location.assign(link.href)})();
`;

/** The offer page: once one answer is sent, both buttons are disabled (the server charges once anyway). */
export const offerScript = `
(function(){var forms=document.querySelectorAll('form.offer-form');var sent=false;
  forms.forEach(function(form){form.addEventListener('submit',function(event){if(sent){event.preventDefault();return}sent=true;
    setTimeout(function(){document.querySelectorAll('form.offer-form button').forEach(function(b){b.disabled=true;b.setAttribute('aria-busy','true')})},0)})});
})();
`;
