/** The served page's script: fetches JSON from the same origin and writes text with textContent only. */
export const PAGE_SCRIPT = `
(function(){
  var $=function(id){return document.getElementById(id)};
  var size=100, offset=0, total=0;
  var fields=['agent','user','host','turn_type','session','from','to','q'];
  function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e;}
  function params(){var p=new URLSearchParams();fields.forEach(function(f){var v=$(f).value;if(v)p.set(f,v);});p.set('offset',String(offset));p.set('limit',String(size));return p;}
  function load(){
    var p=params();$('status').textContent='loading…';
    fetch('api/rows?'+p.toString()).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error(j.error||r.statusText);return j;});}).then(function(page){
      total=page.total;var body=$('rows');body.replaceChildren();
      page.rows.forEach(function(r){
        var tr=el('tr');tr.className='t-'+String(r.turn_type).replace(/[^a-z_]/g,'');
        tr.appendChild(el('td',r.timestamp_utc||'undated'));tr.appendChild(el('td',r.agent));tr.appendChild(el('td',r.user+'@'+r.host));
        var s=el('td');var a=el('a',r.session_id);a.href='#';a.addEventListener('click',function(ev){ev.preventDefault();$('session').value=r.session_id;offset=0;load();});s.appendChild(a);tr.appendChild(s);
        tr.appendChild(el('td',[r.turn_type,r.tool_name,r.tag].filter(Boolean).join(' · ')));
        var td=el('td');td.appendChild(el('pre',r.text));if(r.text_length>String(r.text).length)td.appendChild(el('div','… '+(r.text_length-String(r.text).length)+' more characters (row '+r.id+' in timeline.sqlite)','note'));tr.appendChild(td);
        tr.appendChild(el('td',r.source_file+':'+(r.source_line===null?'':r.source_line),'src'));
        body.appendChild(tr);
      });
      $('status').textContent=total?('rows '+(offset+1)+'–'+(offset+page.rows.length)+' of '+total):'no rows match';
      $('prev').disabled=offset<=0;$('next').disabled=offset+size>=total;
    }).catch(function(e){$('status').textContent='error: '+e.message;});
  }
  fetch('api/facets').then(function(r){return r.json();}).then(function(f){
    ['agent','user','host','turn_type'].forEach(function(k){var s=$(k);(f[k]||[]).forEach(function(v){var o=el('option',v);o.value=v;s.appendChild(o);});});
  });
  $('filters').addEventListener('submit',function(ev){ev.preventDefault();offset=0;load();});
  $('prev').addEventListener('click',function(){offset=Math.max(0,offset-size);load();});
  $('next').addEventListener('click',function(){offset+=size;load();});
  load();
})();
`;

/** The served page around {@link PAGE_SCRIPT} (`title` already escaped). */
export function servePage(title: string): string {
  const sel = (id: string, label: string) => `<label>${label} <select id="${id}"><option value="">any</option></select></label>`;
  const inp = (id: string, label: string, ph: string) => `<label>${label} <input id="${id}" placeholder="${ph}"></label>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${title}</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:0}header{background:#1b2a3a;color:#fff;padding:10px 20px}h1{margin:0;font-size:18px}
form{padding:8px 20px;background:#eef2f6;display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center}#q{width:22em}
#bar{padding:6px 20px}table{border-collapse:collapse;margin:0 20px 30px;font-size:13px}th,td{border:1px solid #d5dae0;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f5f8}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;max-width:80ch;font:12px/1.35 ui-monospace,monospace}
.note{color:#556;font-size:12px}.src{font-size:12px;color:#556;overflow-wrap:anywhere;max-width:30ch}
.t-user{background:#f2f7ff}.t-tool_use{background:#fffaf0}.t-system{background:#f7f7f7}
</style></head><body>
<header><h1>${title}</h1></header>
<form id="filters">${sel('agent', 'agent')}${sel('user', 'user')}${sel('host', 'host')}${sel('turn_type', 'turn type')}
${inp('session', 'session', 'session id')}${inp('from', 'from', '2026-04-30')}${inp('to', 'to', '2026-05-01T12')}${inp('q', 'search', 'words in the text')}
<button type="submit" id="go">Apply</button></form>
<div id="bar"><button id="prev" type="button">◀ previous</button> <button id="next" type="button">next ▶</button> <span id="status"></span></div>
<table><thead><tr><th>time (UTC)</th><th>agent</th><th>user@host</th><th>session</th><th>turn</th><th>text</th><th>source</th></tr></thead><tbody id="rows"></tbody></table>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
