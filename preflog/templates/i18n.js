"use strict";
// The page's words in its language: _("msgid", {name: value}) is the translation the page handed over in
// the JSON block "messages" of the page (rendered from the message catalog: preflog/locale), with
// each %(name)s replaced; English pages hand none and show the msgid itself.
var _ = (function () {
  var el = document.getElementById("messages");
  var messages = el ? JSON.parse(el.textContent) : {};
  return function (msgid, values) {
    var text = Object.prototype.hasOwnProperty.call(messages, msgid) ? messages[msgid] : msgid;
    return values ? text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); }) : text;
  };
})();
