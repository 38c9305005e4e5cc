/** report.html's styles (inline: the file opens from disk with no network). */
export const REPORT_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
header{background:#1b2a3a;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
nav{padding:8px 24px;background:#eef2f6;position:sticky;top:0;z-index:1}nav a{margin-right:14px;color:#1b4f8a}
main{padding:0 24px 40px}h2{margin-top:32px;border-bottom:1px solid #ccd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #d5dae0;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f5f8}td{max-width:60ch;overflow-wrap:anywhere}.none{color:#667}.note{color:#556;font-size:13px}
.ok{color:#176a2b}.bad{color:#a31d1d;font-weight:600}
.conv{border:1px solid #d5dae0;border-radius:6px;margin:14px 0;padding:6px 12px}.conv h3{margin:4px 0;font-size:15px}
.turn{margin:6px 0;padding:4px 8px;border-left:4px solid #ccd}.turn .meta{font-size:12px;color:#556}
.turn pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0;font:13px/1.4 ui-monospace,monospace}
.t-user{border-color:#2f6fd6;background:#f2f7ff}.t-assistant{border-color:#2a9d55}.t-tool_use{border-color:#c78a12;background:#fffaf0}
.t-tool_result{border-color:#b9a06a}.t-system{border-color:#999;background:#f7f7f7}.t-thinking{border-color:#8a63c7}
.hidden{display:none}#filter{width:30em;padding:4px}svg text{font-size:10px;fill:#445}
`;

/** report.html's only script: filters the conversations by text (reads textContent, writes no HTML). */
export const REPORT_SCRIPT = `
(function(){
  var box=document.getElementById('filter');var out=document.getElementById('filter-count');
  if(!box)return;
  box.addEventListener('input',function(){
    var q=box.value.toLowerCase();var n=0;
    var turns=document.querySelectorAll('.turn');
    for(var i=0;i<turns.length;i++){var hit=!q||turns[i].textContent.toLowerCase().indexOf(q)>=0;turns[i].classList.toggle('hidden',!hit);if(hit&&q)n++;}
    var convs=document.querySelectorAll('.conv');
    for(var j=0;j<convs.length;j++){convs[j].classList.toggle('hidden',!!q&&!convs[j].querySelector('.turn:not(.hidden)'));}
    out.textContent=q?n+' matching entries':'';
  });
})();
`;
